package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.spi.BackendOptions;
import java.util.Objects;

/** The selected backend and the options it was given. */
public record BackendConfig(LoadedBackend backend, BackendOptions options) {
    public BackendConfig {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(options, "options");
    }

    public String name() {
        return backend.name();
    }
}
