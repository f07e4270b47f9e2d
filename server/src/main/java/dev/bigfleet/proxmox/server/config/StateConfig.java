package dev.bigfleet.proxmox.server.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** Where durable state lives: an SQLite file, or nowhere (state in memory, lost on restart). */
public record StateConfig(Optional<Path> path) {
    public StateConfig {
        Objects.requireNonNull(path, "path");
    }

    /** For the startup log line. */
    public String describe() {
        return path.map(Path::toString).orElse("memory");
    }
}
