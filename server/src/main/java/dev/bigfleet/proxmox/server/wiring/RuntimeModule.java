package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import dev.bigfleet.proxmox.server.config.RuntimeConfig;

/** The process' rhythm (reconcile interval, shutdown grace) and what it opened, for the runtime. */
public final class RuntimeModule extends AbstractModule {
    private final RuntimeConfig config;
    private final Closeables closeables;

    public RuntimeModule(RuntimeConfig config, Closeables closeables) {
        this.config = config;
        this.closeables = closeables;
    }

    @Override
    protected void configure() {
        bind(RuntimeConfig.class).toInstance(config);
        bind(Closeables.class).toInstance(closeables);
    }
}
