package dev.bigfleet.proxmox.server.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where durable state lives: an SQLite file, a PostgreSQL database that replicas share, or nowhere
 * (state in memory, lost on restart).
 */
public record StateConfig(Optional<Path> path, Optional<SharedState> shared) {
    public StateConfig {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(shared, "shared");
        if (path.isPresent() && shared.isPresent()) {
            throw new IllegalArgumentException("state is either a file or a database");
        }
    }

    /** An SQLite file, or memory. */
    public StateConfig(Optional<Path> path) {
        this(path, Optional.empty());
    }

    /** For the startup log line: never the password. */
    public String describe() {
        return shared.map(SharedState::description)
                .orElseGet(() -> path.map(Path::toString).orElse("memory"));
    }
}
