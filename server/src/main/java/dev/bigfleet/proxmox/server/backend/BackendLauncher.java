package dev.bigfleet.proxmox.server.backend;

import dev.bigfleet.proxmox.server.config.ConfigException;
import dev.bigfleet.proxmox.server.config.ProviderConfig;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;

/** Builds the selected backend, turning its validation failures into configuration errors. */
public final class BackendLauncher {
    private BackendLauncher() {}

    public static ProxmoxBackend create(ProviderConfig config) throws ConfigException {
        return create(config, ApiCallRecorder.NONE);
    }

    /** Builds the backend; it reports the calls it makes to the Proxmox API to {@code apiCalls}. */
    public static ProxmoxBackend create(ProviderConfig config, ApiCallRecorder apiCalls) throws ConfigException {
        BackendContext context = new BackendContext(config.providerLabel(), config.nodes(), config.catalog(),
                config.offerings(), config.backendOptions(), apiCalls);
        try {
            return config.backendFactory().create(context);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        } catch (Exception e) {
            throw new ConfigException("backend \"" + config.backendName() + "\" failed to start: " + e.getMessage(), e);
        }
    }
}
