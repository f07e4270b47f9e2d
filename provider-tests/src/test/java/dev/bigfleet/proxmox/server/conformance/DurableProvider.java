package dev.bigfleet.proxmox.server.conformance;

import dev.bigfleet.proxmox.conformance.target.RestartableServer;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The provider as its own process with {@code --state}, so the durable behaviours can SIGKILL it
 * and start it again on the same state file and port. With the system properties {@value
 * #STATE_PROPERTY} and {@value #PASSWORD_PROPERTY} its state is that PostgreSQL database instead,
 * as a replica: a start counts once it leads.
 */
final class DurableProvider implements RestartableServer {
    private static final Duration LEAD = Duration.ofSeconds(90);
    /** A {@code postgresql://} state URL to run on instead of an SQLite file. */
    static final String STATE_PROPERTY = "conformance.durable.state";
    /** The password file of {@value #STATE_PROPERTY}. */
    static final String PASSWORD_PROPERTY = "conformance.durable.state-password-file";

    private final TestingProvider provider;
    private final boolean replica;

    private DurableProvider(TestingProvider provider, boolean replica) {
        this.provider = provider;
        this.replica = replica;
    }

    static DurableProvider start() throws Exception {
        String shared = System.getProperty(STATE_PROPERTY, "");
        TestingProvider.Builder builder = TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .noHttp()
                .fakeLatency(Duration.ofMillis(20))
                .fakeFaults()
                .seedCount(200)
                .flags("--transition-timeout", "60s");
        if (shared.isEmpty()) {
            Path dir = Files.createTempDirectory("conformance-durable");
            builder.sqliteState(dir.resolve("state.db"));
        } else {
            // the state flags as given: the URL and password file of a database started elsewhere
            builder.flags(List.of(
                    "--state",
                    shared,
                    "--state-password-file",
                    System.getProperty(PASSWORD_PROPERTY),
                    "--leader-lease",
                    "2s",
                    "--leader-renew",
                    "500ms"));
        }
        DurableProvider server = new DurableProvider(builder.build(), !shared.isEmpty());
        server.awaitLeading();
        return server;
    }

    /** A restarted replica takes its lease back once it expired. */
    private void awaitLeading() throws InterruptedException {
        if (replica) {
            provider.awaitLine("leading (epoch ", LEAD);
        }
    }

    @Override
    public String target() {
        return provider.target();
    }

    @Override
    public void killAndRestart() throws Exception {
        provider.killAndRestart(); // SIGKILL: no shutdown hook, no graceful stop
        awaitLeading();
    }

    @Override
    public void close() {
        provider.close();
    }
}
