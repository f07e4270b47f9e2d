package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;

/** {@link ApiOutageBackend}, found on the test class path by its service file. */
public final class ApiOutageBackendFactory implements ProxmoxBackendFactory {
    @Override
    public int spiVersion() {
        return BackendSpi.VERSION;
    }

    @Override
    public String name() {
        return "api-outage";
    }

    @Override
    public ProxmoxBackend create(BackendContext context) {
        return new ApiOutageBackend();
    }
}
