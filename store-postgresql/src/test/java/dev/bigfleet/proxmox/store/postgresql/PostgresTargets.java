package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.testing.TestingPostgres;
import java.time.Duration;

/** A store's connection settings for a database of a {@link TestingPostgres}. */
final class PostgresTargets {
    private PostgresTargets() {}

    static PostgresTarget of(TestingPostgres postgres, String database, Duration writeTimeout) {
        return new PostgresTarget(
                postgres.jdbcUrl(database),
                TestingPostgres.USER,
                postgres.password(),
                postgres.stateUrl(database),
                writeTimeout);
    }
}
