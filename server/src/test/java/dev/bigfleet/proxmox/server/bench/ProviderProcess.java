package dev.bigfleet.proxmox.server.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The provider as an operator runs it, for the benchmarks: {@code bin/proxmox} (with its class-data
 * archive) in its own process, on ports chosen up front, with its log in a file.
 */
final class ProviderProcess implements AutoCloseable {
    private static final Path LAUNCHER = Path.of("bin/proxmox").toAbsolutePath();
    private final Process process;
    private final long startedNanos;
    final int grpcPort;
    final int httpPort;

    private ProviderProcess(Process process, long startedNanos, int grpcPort, int httpPort) {
        this.process = process;
        this.startedNanos = startedNanos;
        this.grpcPort = grpcPort;
        this.httpPort = httpPort;
    }

    /** Starts {@code bin/proxmox} on the fake backend with no latency and {@code extra} flags. */
    static ProviderProcess start(Path log, String... extra) throws IOException {
        int grpcPort = freePort();
        int httpPort = freePort();
        List<String> command = new ArrayList<>(List.of(
                LAUNCHER.toString(),
                "--proxmox-backend",
                "fake",
                "--fake-latency",
                "0s",
                "--reconcile-interval",
                "0",
                "--addr",
                "127.0.0.1:" + grpcPort,
                "--metrics-addr",
                "127.0.0.1:" + httpPort));
        command.addAll(List.of(extra));
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new ProviderProcess(process, started, grpcPort, httpPort);
    }

    /** Polls {@code /readyz} until it answers 200; returns the seconds since the process was started. */
    double awaitReady() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                .build();
        long deadline = startedNanos + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the provider exited with " + process.exitValue());
            }
            try {
                if (http.send(readyz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return (System.nanoTime() - startedNanos) / 1e9;
                }
            } catch (IOException notListeningYet) {
                // the HTTP server is not up yet
            }
            Thread.sleep(10);
        }
        throw new IllegalStateException("the provider did not become ready");
    }

    /** SIGKILL, as a crash: nothing is flushed or folded. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM, a graceful stop. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            kill();
        }
    }

    /** CPU seconds the process has used so far. */
    double cpuSeconds() {
        return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(Double.NaN);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
