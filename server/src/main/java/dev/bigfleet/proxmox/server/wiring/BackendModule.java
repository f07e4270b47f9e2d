package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.bigfleet.proxmox.server.config.BackendConfig;
import dev.bigfleet.proxmox.server.config.InventoryConfig;
import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;

/**
 * The selected backend, created from its options; it reports its API calls into the metrics. A
 * failure to create it (bad settings, an unreachable cluster) stops startup with its own line.
 */
public final class BackendModule extends AbstractModule {
    private final BackendConfig config;

    public BackendModule(BackendConfig config) {
        this.config = config;
    }

    @Override
    protected void configure() {
        bind(BackendConfig.class).toInstance(config);
    }

    @Provides
    @Singleton
    ProxmoxBackend backend(InventoryConfig inventory, ProviderMetrics metrics, Closeables closeables)
            throws ConfigException {
        BackendContext context = new BackendContext(
                inventory.plan().providerLabel(),
                inventory.nodes(),
                inventory.plan().catalog(),
                inventory.plan().offerings(),
                config.options(),
                metrics.apiCalls());
        try {
            return closeables.register(config.backend().create(context));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        } catch (Exception e) {
            throw new ConfigException("backend \"" + config.name() + "\" failed to start: " + e.getMessage(), e);
        }
    }
}
