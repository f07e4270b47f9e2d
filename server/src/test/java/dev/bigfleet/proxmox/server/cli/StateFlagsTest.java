package dev.bigfleet.proxmox.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.server.config.SharedState;
import dev.bigfleet.proxmox.server.config.StateConfig;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --state} as a path or a {@code postgresql://} URL, its password file and the lease flags. */
class StateFlagsTest {
    private static final String SECRET = "s3cr3t-pa55word";

    @TempDir
    Path dir;

    private static StateConfig state(String... args) throws Exception {
        String[] all = new String[args.length + 1];
        all[0] = "--use-fake-backend";
        System.arraycopy(args, 0, all, 1, args.length);
        return ConfigLoaderTest.load(all).state();
    }

    private Path passwordFile() throws Exception {
        Path p = dir.resolve("password");
        Files.writeString(p, SECRET + "\n");
        return p;
    }

    @Test
    void aPlainPathIsStillAnSqliteFileAndNothingIsMemory() throws Exception {
        assertThat(state("--state", "/var/lib/bigfleet/state.db").path())
                .contains(Path.of("/var/lib/bigfleet/state.db"));
        assertThat(state().describe()).isEqualTo("memory");
        assertThat(state("--state", "/x/state.db").shared()).isEmpty();
    }

    @Test
    void aPostgresqlUrlIsSharedStateWithVerifiedTlsByDefaultAndThePasswordFromItsFile() throws Exception {
        SharedState s = state(
                        "--state",
                        "postgresql://db.example:6432/bigfleet?user=provider",
                        "--state-password-file",
                        passwordFile().toString())
                .shared()
                .orElseThrow();
        assertThat(s.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6432/bigfleet?sslmode=verify-full");
        assertThat(s.user()).isEqualTo("provider");
        assertThat(s.password()).contains(SECRET);
        assertThat(s.toString()).doesNotContain(SECRET);
        assertThat(s.lease()).isEqualTo(Duration.ofSeconds(6));
        assertThat(s.renew()).isEqualTo(Duration.ofSeconds(2));

        SharedState custom = state(
                        "--state",
                        "postgresql://10.0.0.5/bigfleet?user=p&sslmode=verify-ca&sslrootcert=/etc/ca.pem",
                        "--leader-lease",
                        "10s",
                        "--leader-renew",
                        "3s")
                .shared()
                .orElseThrow();
        assertThat(custom.jdbcUrl())
                .isEqualTo("jdbc:postgresql://10.0.0.5:5432/bigfleet?sslmode=verify-ca&sslrootcert=%2Fetc%2Fca.pem");
        assertThat(custom.password()).isEmpty();
        assertThat(custom.lease()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void mistakesStopStartupWithOneLineNamingTheFlagAndNeverThePassword() throws Exception {
        assertThatThrownBy(() -> state("--state", "postgresql://db/bigfleet?user=p&password=" + SECRET))
                .isInstanceOf(ConfigException.class)
                .hasMessage("--state: the password must not be in the URL; give it in --state-password-file");
        assertThatThrownBy(() -> state("--state", "postgresql://p:" + SECRET + "@db/bigfleet"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--state: ")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> state("--state", "postgresql://db/bigfleet"))
                .hasMessage("--state: postgresql:// needs ?user=USER");
        assertThatThrownBy(() -> state("--state", "postgresql://db/?user=p"))
                .hasMessageContaining("needs one database name");
        assertThatThrownBy(() -> state("--state", "postgresql://db/bigfleet?user=p&sslmode=require"))
                .hasMessageContaining("sslmode=require is not allowed");
        assertThatThrownBy(() -> state("--state", "postgresql://db/bigfleet?user=p&ssl_mode=x"))
                .hasMessageContaining("unknown parameter \"ssl_mode\"");
        assertThatThrownBy(() ->
                        state("--state", "postgresql://db/b?user=p", "--leader-lease", "4s", "--leader-renew", "3s"))
                .hasMessage("--leader-renew: must be at most half of --leader-lease (4s), got 3s");
        assertThatThrownBy(() -> state("--state", "postgresql://db/b?user=p", "--leader-lease", "0s"))
                .hasMessage("--leader-lease: must be > 0, got 0s");
        assertThatThrownBy(() -> state("--state", "postgresql://db/b?user=p", "--state-password-file", "/nonexistent"))
                .hasMessage("--state-password-file /nonexistent: not a readable file");
        assertThatThrownBy(() -> state(
                        "--state",
                        "/x/state.db",
                        "--state-password-file",
                        passwordFile().toString()))
                .hasMessage("--state-password-file: only with --state postgresql://...");
    }
}
