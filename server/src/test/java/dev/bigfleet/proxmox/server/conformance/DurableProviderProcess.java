package dev.bigfleet.proxmox.server.conformance;

import dev.bigfleet.proxmox.conformance.target.RestartableServer;
import dev.bigfleet.proxmox.server.ProcessHarness;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The provider as its own process with {@code --state}, so the durable behaviours can SIGKILL it
 * and start it again on the same state file and port.
 */
final class DurableProviderProcess implements RestartableServer {
    private static final Duration START = Duration.ofSeconds(90);
    private final String[] args;
    private final int port;
    private ProcessHarness process;

    private DurableProviderProcess(String[] args, int port) {
        this.args = args;
        this.port = port;
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
            "0",
            "--state",
            dir.resolve("state.db").toString()
        };
        DurableProviderProcess server = new DurableProviderProcess(args, port);
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
