package dev.bigfleet.proxmox.server.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import dev.bigfleet.proxmox.store.postgresql.TestPostgres;
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
        try (TestPostgres postgres = TestPostgres.start();
                CapturedLogs logs = new CapturedLogs(Level.TRACE)) {
            String db = postgres.createDatabase();
            try (RunningProvider p = ProviderMain.start(
                    "--use-fake-backend",
                    "--addr",
                    "127.0.0.1:0",
                    "--metrics-addr",
                    "",
                    "--seed-count",
                    "4",
                    "--state",
                    postgres.stateUrl(db),
                    "--state-password-file",
                    postgres.passwordFile().toString(),
                    "--leader-lease",
                    "2s",
                    "--leader-renew",
                    "500ms")) {
                assertThat(p.grpcPort()).isPositive();
                Thread.sleep(3_000); // elected, seeded, a few renewals
            }
            Path wrong = dir.resolve("wrong");
            Files.writeString(wrong, "wrong-" + postgres.password() + "\n");
            assertThatThrownBy(() -> ProviderMain.start(
                            "--use-fake-backend",
                            "--addr",
                            "127.0.0.1:0",
                            "--metrics-addr",
                            "",
                            "--state",
                            postgres.stateUrl(db),
                            "--state-password-file",
                            wrong.toString()))
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
