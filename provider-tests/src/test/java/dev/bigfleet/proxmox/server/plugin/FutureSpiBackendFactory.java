package dev.bigfleet.proxmox.server.plugin;

import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;

/**
 * A plugin built against an SPI version this provider does not speak. Not listed in this module's
 * service files: tests put it in a plugin jar of its own ({@link PluginJar}).
 */
public final class FutureSpiBackendFactory implements ProxmoxBackendFactory {
    static final int SPI_VERSION = 99;

    @Override
    public int spiVersion() {
        return SPI_VERSION;
    }

    @Override
    public String name() {
        return "future";
    }

    @Override
    public ProxmoxBackend create(BackendContext context) {
        throw new UnsupportedOperationException("a plugin of an unsupported SPI version is never started");
    }
}
