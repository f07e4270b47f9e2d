package dev.bigfleet.proxmox.server.replica;

import dev.bigfleet.proxmox.server.ProcessHarness;
import dev.bigfleet.proxmox.store.postgresql.TestPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Two provider replicas, each its own process on ports fixed for its whole life (a replica that is
 * killed comes back on the same ports), sharing one PostgreSQL database; and the signals a test
 * sends them: SIGKILL, SIGSTOP and SIGCONT.
 */
final class ReplicaProcesses implements AutoCloseable {
    private static final Duration START = Duration.ofSeconds(90);
    private final String[] common;
    final int[] grpcPorts = new int[2];
    private final int[] httpPorts = new int[2];
    private final ProcessHarness[] processes = new ProcessHarness[2];
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();

    ReplicaProcesses(TestPostgres postgres, String db, int machines, Duration lease, Duration renew)
            throws IOException {
        common = new String[] {
            "--proxmox-backend",
            "fake",
            "--fake-latency",
            "30ms",
            "--seed-count",
            Integer.toString(machines),
            "--reconcile-interval",
            "0",
            "--state",
            postgres.stateUrl(db),
            "--state-password-file",
            postgres.passwordFile().toString(),
            "--leader-lease",
            dev.bigfleet.proxmox.api.GoDuration.format(lease),
            "--leader-renew",
            dev.bigfleet.proxmox.api.GoDuration.format(renew)
        };
        for (int i = 0; i < 2; i++) {
            grpcPorts[i] = freePort();
            httpPorts[i] = freePort();
        }
    }

    /** Starts replica {@code i} and waits until its gRPC port serves (as a standby at first). */
    void start(int i) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(common));
        args.addAll(List.of("--addr", "127.0.0.1:" + grpcPorts[i], "--metrics-addr", "127.0.0.1:" + httpPorts[i]));
        processes[i] = ProcessHarness.start(args.toArray(String[]::new));
        processes[i].awaitServing(START);
    }

    /** {@code /readyz} of replica {@code i}: 200 leading, 503 standing by, -1 not answering. */
    int readyz(int i) {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPorts[i] + "/readyz"))
                                    .timeout(Duration.ofSeconds(1))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The replica whose {@code /readyz} answers 200, waiting for one; -1 if none within {@code timeout}. */
    int awaitLeader(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (int i = 0; i < 2; i++) {
                if (processes[i] != null && processes[i].process.isAlive() && readyz(i) == 200) {
                    return i;
                }
            }
            Thread.sleep(20);
        }
        return -1;
    }

    /** Waits until replica {@code i} answers {@code /readyz} 200; returns whether it did in time. */
    boolean awaitReady(int i, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (readyz(i) == 200) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    void kill(int i) throws InterruptedException {
        processes[i].process.destroyForcibly();
        processes[i].awaitExit(Duration.ofSeconds(30));
    }

    void freeze(int i) throws IOException, InterruptedException {
        signal(i, "STOP");
    }

    void thaw(int i) throws IOException, InterruptedException {
        signal(i, "CONT");
    }

    List<String> log(int i) {
        return processes[i].stderr;
    }

    private void signal(int i, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes[i].process.pid()))
                .inheritIO()
                .start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill -" + signal + " failed");
        }
    }

    @Override
    public void close() {
        for (ProcessHarness p : processes) {
            if (p != null) {
                if (p.process.isAlive()) {
                    try {
                        thawQuietly(p);
                    } catch (IOException | InterruptedException ignored) {
                        // it is killed below anyway
                    }
                }
                p.close();
            }
        }
    }

    private static void thawQuietly(ProcessHarness p) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-CONT", Long.toString(p.process.pid()))
                .start()
                .waitFor(5, TimeUnit.SECONDS);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
