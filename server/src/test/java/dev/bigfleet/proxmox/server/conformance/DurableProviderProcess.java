package dev.bigfleet.proxmox.server.conformance;

import dev.bigfleet.proxmox.conformance.target.RestartableServer;
import dev.bigfleet.proxmox.server.ProcessHarness;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The provider as its own process with {@code --state}, so the durable behaviours can SIGKILL it
 * and start it again on the same state file and port. With the system properties {@value
 * #STATE_PROPERTY} and {@value #PASSWORD_PROPERTY} its state is that PostgreSQL database instead,
 * as a replica: a start counts once it leads.
 */
final class DurableProviderProcess implements RestartableServer {
    private static final Duration START = Duration.ofSeconds(90);
    /** A {@code postgresql://} state URL to run on instead of an SQLite file. */
    static final String STATE_PROPERTY = "conformance.durable.state";
    /** The password file of {@value #STATE_PROPERTY}. */
    static final String PASSWORD_PROPERTY = "conformance.durable.state-password-file";

    private final String[] args;
    private final int port;
    private final boolean replica;
    private ProcessHarness process;

    private DurableProviderProcess(String[] args, int port, boolean replica) {
        this.args = args;
        this.port = port;
        this.replica = replica;
    }

    static DurableProviderProcess start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("conformance-durable");
        int port = freePort();
        String[] args = {
            "--proxmox-backend",
            "fake",
            "--addr",
            "127.0.0.1:" + port,
            "--metrics-addr",
            "",
            "--fake-latency",
            "20ms",
            "--fake-faults",
            "--transition-timeout",
            "60s",
            "--seed-count",
            "200",
            "--reconcile-interval",
            "0"
        };
        String shared = System.getProperty(STATE_PROPERTY, "");
        List<String> state = shared.isEmpty()
                ? List.of("--state", dir.resolve("state.db").toString())
                : List.of(
                        "--state",
                        shared,
                        "--state-password-file",
                        System.getProperty(PASSWORD_PROPERTY),
                        "--leader-lease",
                        "2s",
                        "--leader-renew",
                        "500ms");
        args = Stream.concat(Arrays.stream(args), state.stream()).toArray(String[]::new);
        DurableProviderProcess server = new DurableProviderProcess(args, port, !shared.isEmpty());
        server.launch();
        return server;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void launch() throws IOException, InterruptedException {
        process = ProcessHarness.start(args);
        process.awaitServing(START);
        if (replica) {
            process.awaitLeading(START); // a restarted replica takes its lease back once it expired
        }
    }

    @Override
    public String target() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void killAndRestart() throws Exception {
        process.process.destroyForcibly(); // SIGKILL: no shutdown hook, no graceful stop
        process.awaitExit(Duration.ofSeconds(30));
        launch();
    }

    @Override
    public void close() {
        process.close();
    }
}
