package dev.bigfleet.proxmox.server.wiring;

import com.google.inject.AbstractModule;
import dev.bigfleet.proxmox.server.config.ProviderConfig;

/** Binds the validated configuration. */
public final class ConfigModule extends AbstractModule {
    private final ProviderConfig config;

    public ConfigModule(ProviderConfig config) {
        this.config = config;
    }

    @Override
    protected void configure() {
        bind(ProviderConfig.class).toInstance(config);
    }
}
