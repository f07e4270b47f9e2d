package dev.bigfleet.proxmox.store.postgresql;

import java.time.Duration;
import java.util.Objects;

/**
 * Where the shared state lives and how to reach it.
 *
 * @param jdbcUrl the driver's URL, without user or password (TLS settings such as {@code sslmode} in it)
 * @param user the database user
 * @param password the password, from a file; never in the URL, never logged (not in {@link #toString})
 * @param description how startup errors and the log name the database: no password
 * @param writeTimeout the longest a replica may sit inside an open transaction before the database
 *     ends it: a leader frozen in the middle of a write must not hold the lease row's lock for long
 */
public record PostgresTarget(String jdbcUrl, String user, String password, String description, Duration writeTimeout) {
    public PostgresTarget {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
    }

    @Override
    public String toString() {
        return description;
    }
}
