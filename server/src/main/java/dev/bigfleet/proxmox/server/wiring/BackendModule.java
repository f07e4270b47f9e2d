package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;

/**
 * Binds the backend. It is built before the injector (by {@link dev.bigfleet.proxmox.server.backend.BackendLauncher})
 * so that its validation errors stop startup with their own one-line message.
 */
public final class BackendModule extends AbstractModule {
    private final ProxmoxBackend backend;

    public BackendModule(ProxmoxBackend backend) {
        this.backend = backend;
    }

    @Override
    protected void configure() {
        bind(ProxmoxBackend.class).toInstance(backend);
    }
}
