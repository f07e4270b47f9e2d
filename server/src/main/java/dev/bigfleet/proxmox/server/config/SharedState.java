package dev.bigfleet.proxmox.server.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * State in a PostgreSQL database that any number of replicas share, one of them leading.
 *
 * @param jdbcUrl the driver's URL: host, port, database and TLS settings, no credentials
 * @param user the database user
 * @param password from {@code --state-password-file}; never logged (not in {@link #toString})
 * @param description {@code --state} as given, for messages
 * @param lease how long a leader's lease runs without a renewal ({@code --leader-lease})
 * @param renew how often the leader renews it and a standby tries to take it ({@code --leader-renew})
 */
public record SharedState(
        String jdbcUrl, String user, Optional<String> password, String description, Duration lease, Duration renew) {
    public SharedState {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(renew, "renew");
    }

    @Override
    public String toString() {
        return description;
    }
}
