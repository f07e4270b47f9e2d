package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Selected with {@code --proxmox-backend proxmox} (or {@code auto} with an API URL). Reads and
 * validates its flags, then proves the cluster is the one configured (TLS, token, nodes, pool,
 * templates) before the provider starts serving.
 */
public final class ProxmoxApiBackendFactory implements ProxmoxBackendFactory {
    public static final String NAME = "proxmox";
    private static final Logger log = LoggerFactory.getLogger(ProxmoxApiBackendFactory.class);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ProxmoxBackend create(BackendContext context) {
        ProxmoxSettings settings = ProxmoxSettings.from(context.options());
        StartupCheck.checkPlacement(context);
        ProxmoxApiBackend backend = new ProxmoxApiBackend(settings, context.providerLabel(), context.apiCalls());
        new StartupCheck(backend.api()).run(context, settings.pool());
        log.info("proxmox backend ready: provider={} {}", context.providerLabel(), settings);
        return backend;
    }
}
