package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One running provider of a {@link TestingProvider}: in this JVM or a process of its own, on
 * loopback ports chosen at its first start and kept for its whole life (a replica that is killed
 * comes back on the same ports, so its channel and URL stay valid).
 */
public final class ProviderReplica implements AutoCloseable {
    private static final Duration START = Duration.ofMinutes(5);

    private final Launch launch;
    private final List<String> args;
    private final boolean metrics;
    private final Optional<TestingCertificates> tls;
    private final boolean mutualTls;
    private final Optional<Path> logFile;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    // a test may start a replica on one thread while it watches the others on another
    private volatile int grpcPort;
    private volatile int httpPort = -1;
    private volatile RunningProvider inJvm;
    private volatile JvmLog jvmLog;
    private volatile ProviderProcess process;
    private volatile ManagedChannel channel;

    ProviderReplica(
            Launch launch,
            List<String> args,
            boolean metrics,
            Optional<TestingCertificates> tls,
            boolean mutualTls,
            Optional<Path> logFile) {
        this.launch = launch;
        this.args = List.copyOf(args);
        this.metrics = metrics;
        this.tls = tls;
        this.mutualTls = mutualTls;
        this.logFile = logFile;
    }

    /** Starts it (again) and returns once it serves: as a standby at first, when it is a replica. */
    public void start() throws Exception {
        if (isRunning()) {
            throw new IllegalStateException("already running");
        }
        List<String> command = new ArrayList<>(args);
        command.addAll(List.of("--addr", "127.0.0.1:" + grpcPort));
        command.addAll(List.of("--metrics-addr", metrics ? "127.0.0.1:" + Math.max(httpPort, 0) : ""));
        if (launch == Launch.IN_THIS_JVM) {
            closeJvmLog();
            jvmLog = JvmLog.capture();
            try {
                inJvm = ProviderMain.start(command.toArray(String[]::new));
            } catch (Exception | Error e) {
                closeJvmLog();
                throw e;
            }
            grpcPort = inJvm.grpcPort();
            httpPort = inJvm.httpPort().orElse(-1);
        } else {
            process = ProviderProcess.start(launch, command, logFile);
            ProviderProcess.ServingPorts ports = process.awaitServing(START);
            grpcPort = ports.grpc();
            httpPort = ports.http().orElse(-1);
        }
        ManagedChannel open = channel;
        if (open != null) {
            // back on the same port: connect now, not when the backoff after the outage runs out
            open.resetConnectBackoff();
        }
    }

    public boolean isRunning() {
        return inJvm != null || (process != null && process.isAlive());
    }

    public int grpcPort() {
        return grpcPort;
    }

    /** The HTTP port (probes, metrics, admin); -1 when it serves no HTTP. */
    public int httpPort() {
        return httpPort;
    }

    /** The gRPC endpoint, {@code 127.0.0.1:PORT}. */
    public String target() {
        return "127.0.0.1:" + grpcPort;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String baseUrl() {
        if (httpPort < 0) {
            throw new IllegalStateException("the provider serves no HTTP (--metrics-addr \"\")");
        }
        return "http://127.0.0.1:" + httpPort;
    }

    /** A channel to it (over TLS, with the client certificate under mTLS); it outlives restarts. */
    public synchronized ManagedChannel channel() {
        if (channel == null) {
            channel = tls.isPresent() ? tlsChannel(tls.get()) : plaintextChannel();
        }
        return channel;
    }

    private ManagedChannel plaintextChannel() {
        return ManagedChannelBuilder.forAddress("127.0.0.1", grpcPort)
                .usePlaintext()
                .build();
    }

    private ManagedChannel tlsChannel(TestingCertificates certs) {
        try {
            SslContextBuilder ssl =
                    GrpcSslContexts.forClient().trustManager(certs.caCert().toFile());
            if (mutualTls) {
                ssl.keyManager(certs.clientCert().toFile(), certs.clientKey().toFile());
            }
            return NettyChannelBuilder.forAddress("127.0.0.1", grpcPort)
                    .sslContext(ssl.build())
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A blocking stub on {@link #channel()}, with no deadline. */
    public CapacityProviderBlockingStub grpc() {
        return CapacityProviderGrpc.newBlockingStub(channel());
    }

    /** A client for the lifecycle calls and the HTTP surface. */
    public LifecycleClient client() {
        return new LifecycleClient(channel(), httpPort < 0 ? "" : baseUrl());
    }

    /** {@code GET path} on its HTTP port. */
    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path);
    }

    public HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The text of {@code /metrics}. */
    public String metrics() throws IOException, InterruptedException {
        return get("/metrics").body();
    }

    /** {@code /readyz}: 200 serving (the leader, of replicas), 503 not (a standby), -1 not answering. */
    public int readyz() {
        try {
            return http.send(
                            HttpRequest.newBuilder(URI.create(baseUrl() + "/readyz"))
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

    /** Waits until {@code /readyz} answers 200; returns whether it did in time. */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (isRunning() && readyz() == 200) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    /** Every line it logged: its stderr as a process; in this JVM, what the JVM logged while it ran. */
    public List<String> log() {
        if (process != null) {
            return process.log();
        }
        return jvmLog == null ? List.of() : jvmLog.lines();
    }

    /** Waits until a line of its log contains {@code text}. */
    public void awaitLine(String text, Duration timeout) throws InterruptedException {
        if (process != null) {
            process.awaitLine(text, timeout);
            return;
        }
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (log().stream().anyMatch(l -> l.contains(text))) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("provider never logged \"" + text + "\": " + log());
    }

    /** The process, for a test that signals it itself; empty in this JVM. */
    public Optional<ProviderProcess> process() {
        return Optional.ofNullable(process);
    }

    /** SIGKILL, as a crash (its own process only). */
    public void kill() throws InterruptedException {
        requireProcess("killed").kill();
    }

    /** SIGSTOP (its own process only). */
    public void freeze() {
        requireProcess("frozen").freeze();
    }

    /** SIGCONT. */
    public void thaw() {
        requireProcess("thawed").thaw();
    }

    /** SIGKILL and start again on the same ports and state. */
    public void killAndRestart() throws Exception {
        kill();
        start();
    }

    /** A graceful stop (SIGTERM for a process); returns the exit code, 0 in this JVM. */
    public int stop() throws InterruptedException {
        if (inJvm != null) {
            inJvm.close();
            inJvm = null;
            closeJvmLog();
            return 0;
        }
        return process == null || !process.isAlive() ? exitCode() : process.stop(Duration.ofSeconds(60));
    }

    private int exitCode() {
        return process == null ? 0 : process.process().exitValue();
    }

    private ProviderProcess requireProcess(String what) {
        if (process == null) {
            throw new UnsupportedOperationException(
                    "a provider in this JVM cannot be " + what + "; build it with Launch.OWN_JVM");
        }
        return process;
    }

    /** Stops capturing; what was captured stays readable until the next start. */
    private void closeJvmLog() {
        if (jvmLog != null) {
            jvmLog.close();
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.shutdownNow();
            try {
                channel.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (inJvm != null) {
            inJvm.close();
            inJvm = null;
        }
        closeJvmLog();
        if (process != null) {
            process.close();
        }
    }
}
