package dev.bigfleet.proxmox.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** TLS to the database with {@code sslmode=verify-full}: the server's certificate and name are checked. */
class PostgresTlsTest {
    private static TestingPostgres postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = TestingPostgres.start(true);
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Test
    void verifyFullConnectsWithTheServersCa() throws Exception {
        String db = postgres.createDatabase();
        try (PostgresStateStore store =
                PostgresStateStore.open(PostgresTargets.of(postgres, db, Duration.ofSeconds(5)))) {
            assertThat(store.load(m -> {})).isEmpty();
        }
    }

    @Test
    void aServerCertificateFromAnotherCaIsRefused() throws Exception {
        String db = postgres.createDatabase();
        Path otherCa = Files.createTempFile("other-ca", ".crt");
        // a well-formed CA certificate that did not sign the server's: the JDK's own test of trust must fail
        try (TestingPostgres other = TestingPostgres.start(true)) {
            Files.copy(other.caFile(), otherCa, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        PostgresTarget right = PostgresTargets.of(postgres, db, Duration.ofSeconds(5));
        PostgresTarget wrongCa = new PostgresTarget(
                right.jdbcUrl().replace(postgres.caFile().toString(), otherCa.toString()),
                right.user(),
                right.password(),
                right.description(),
                right.writeTimeout());
        assertThatThrownBy(() -> PostgresStateStore.open(wrongCa))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("cannot connect");
    }

    @Test
    void aPlainConnectionIsNotAccepted() throws Exception {
        String db = postgres.createDatabase();
        PostgresTarget right = PostgresTargets.of(postgres, db, Duration.ofSeconds(5));
        PostgresTarget plain = new PostgresTarget(
                "jdbc:postgresql://127.0.0.1:" + postgres.port() + "/" + db + "?sslmode=disable",
                right.user(),
                right.password(),
                right.description(),
                right.writeTimeout());
        assertThatThrownBy(() -> PostgresStateStore.open(plain))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("no pg_hba.conf entry");
    }
}
