package dev.bigfleet.proxmox.server.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.LogManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The PostgreSQL password reaches no log line at any level: every logger is forced to TRACE (the
 * driver's java.util.logging lines included, routed as {@code main} routes them) while a replica
 * connects, leads, and while a start with a wrong password fails.
 */
class DatabasePasswordNeverLoggedTest {
    @TempDir
    Path dir;

    @Test
    void theDatabasePasswordIsNeverLogged() throws Exception {
        SLF4JBridgeHandler.removeHandlersForRootLogger();
        SLF4JBridgeHandler.install();
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.ALL);
        TestingPostgres postgres = TestingPostgres.shared();
        try (CapturedLogs logs = new CapturedLogs(Level.TRACE)) {
            String db = postgres.createDatabase();
            try (TestingProvider p = TestingProvider.builder()
                    .noHttp()
                    .seedCount(4)
                    .postgresState(postgres, db)
                    .build()) {
                assertThat(p.grpcPort()).isPositive();
                Thread.sleep(3_000); // elected, seeded, a few renewals
            }
            Path wrong = dir.resolve("wrong");
            Files.writeString(wrong, "wrong-" + postgres.password() + "\n");
            assertThatThrownBy(() -> TestingProvider.builder()
                            .noHttp()
                            .flags("--state", postgres.stateUrl(db), "--state-password-file", wrong.toString())
                            .build())
                    .hasMessageContaining("password authentication failed")
                    .hasMessageNotContaining(postgres.password());
            assertThat(logs.lines).as("lines captured").hasSizeGreaterThan(20);
            assertThat(logs.events)
                    .as("the driver's own lines were on")
                    .anyMatch(e -> e.getLoggerName().startsWith("org.postgresql"));
            for (String line : logs.lines) {
                assertThat(line).as("a log line").doesNotContain(postgres.password());
            }
        } finally {
            LogManager.getLogManager().readConfiguration();
            SLF4JBridgeHandler.removeHandlersForRootLogger();
        }
    }
}
