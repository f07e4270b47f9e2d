package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one way a test starts a provider: the real {@code main} wiring with the flags a {@link
 * Builder} collects, in this JVM or as a process of its own ({@link Launch}), on the fake backend, a
 * plugin backend or the real one against a {@link TestingProxmoxCluster}, with in-memory, SQLite or
 * PostgreSQL state, plaintext, TLS or mTLS, as one replica or several sharing one database. Its gRPC
 * channel, HTTP base URL, log and metrics are at hand; {@link #close()} stops everything it
 * started.
 *
 * <pre>{@code
 * try (TestingProvider provider = TestingProvider.builder().seedCount(8).build()) {
 *     provider.client().create(id);
 * }
 * }</pre>
 *
 * The single-replica accessors ({@link #grpc()}, {@link #baseUrl()}, ...) are those of replica 0.
 */
public final class TestingProvider implements AutoCloseable {
    private static final Duration LEAD = Duration.ofSeconds(90);
    private final List<ProviderReplica> replicas;

    private TestingProvider(List<ProviderReplica> replicas) {
        this.replicas = replicas;
    }

    public static Builder builder() {
        return new Builder();
    }

    public ProviderReplica replica(int i) {
        return replicas.get(i);
    }

    public List<ProviderReplica> replicas() {
        return replicas;
    }

    /**
     * The replica whose {@code /readyz} answers 200, waiting for one; -1 if none does within
     * {@code timeout}.
     */
    public int awaitLeader(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (int i = 0; i < replicas.size(); i++) {
                ProviderReplica r = replicas.get(i);
                if (r.isRunning() && r.readyz() == 200) {
                    return i;
                }
            }
            Thread.sleep(20);
        }
        return -1;
    }

    public int grpcPort() {
        return replica(0).grpcPort();
    }

    public int httpPort() {
        return replica(0).httpPort();
    }

    public String target() {
        return replica(0).target();
    }

    public ManagedChannel channel() {
        return replica(0).channel();
    }

    public CapacityProviderBlockingStub grpc() {
        return replica(0).grpc();
    }

    public LifecycleClient client() {
        return replica(0).client();
    }

    public String baseUrl() {
        return replica(0).baseUrl();
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return replica(0).get(path);
    }

    public HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        return replica(0).send(method, path);
    }

    public String metrics() throws IOException, InterruptedException {
        return replica(0).metrics();
    }

    public List<String> log() {
        return replica(0).log();
    }

    public void awaitLine(String text, Duration timeout) throws InterruptedException {
        replica(0).awaitLine(text, timeout);
    }

    public void kill() throws InterruptedException {
        replica(0).kill();
    }

    public void killAndRestart() throws Exception {
        replica(0).killAndRestart();
    }

    /** Gracefully stops every replica, the last first; returns replica 0's exit code. */
    public int stop() throws InterruptedException {
        int code = 0;
        for (int i = replicas.size() - 1; i >= 0; i--) {
            code = replicas.get(i).stop();
        }
        return code;
    }

    @Override
    public void close() {
        for (int i = replicas.size() - 1; i >= 0; i--) {
            replicas.get(i).close();
        }
    }

    /** The provider's flags and how it runs; {@link #build()} starts it. */
    public static final class Builder {
        private Launch launch = Launch.IN_THIS_JVM;
        private List<String> backend = List.of("--proxmox-backend", "fake");
        private List<String> state = List.of();
        private boolean replicated;
        private Duration lease = Duration.ofSeconds(2);
        private Duration renew = Duration.ofMillis(500);
        private int replicas = 1;
        private boolean metrics = true;
        private Optional<TestingCertificates> tls = Optional.empty();
        private boolean mutualTls;
        private Optional<Path> logFile = Optional.empty();
        private final List<String> flags = new ArrayList<>();

        private Builder() {}

        /** Where it runs (default {@link Launch#IN_THIS_JVM}). */
        public Builder launch(Launch launch) {
            this.launch = launch;
            return this;
        }

        /** The fake backend (the default). */
        public Builder fakeBackend() {
            backend = List.of("--proxmox-backend", "fake");
            return this;
        }

        /** The backend of this name ({@code --proxmox-backend}), a plugin's or a built-in one. */
        public Builder backend(String name) {
            backend = List.of("--proxmox-backend", name);
            return this;
        }

        /** The real backend against {@code cluster}. */
        public Builder proxmox(TestingProxmoxCluster cluster) {
            backend = cluster.providerFlags();
            return this;
        }

        /** {@code --seed-count}: Speculative machines the provider starts with. */
        public Builder seedCount(int machines) {
            return flags("--seed-count", Integer.toString(machines));
        }

        /** {@code --fake-latency}. */
        public Builder fakeLatency(Duration latency) {
            return flags("--fake-latency", GoDuration.format(latency));
        }

        /** {@code --fake-faults}: the fake's fault mode. */
        public Builder fakeFaults() {
            return flags("--fake-faults");
        }

        /** State in memory (the default). */
        public Builder inMemoryState() {
            state = List.of();
            replicated = false;
            return this;
        }

        /** {@code --state FILE}: an SQLite file. */
        public Builder sqliteState(Path file) {
            state = List.of("--state", file.toString());
            replicated = false;
            return this;
        }

        /** {@code --state postgresql://...} on {@code database} of {@code postgres}: replicas. */
        public Builder postgresState(TestingPostgres postgres, String database) {
            state = List.of(
                    "--state",
                    postgres.stateUrl(database),
                    "--state-password-file",
                    postgres.passwordFile().toString());
            replicated = true;
            return this;
        }

        /** {@code --leader-lease} and {@code --leader-renew} of replicas (default 2s and 500ms). */
        public Builder leaderLease(Duration lease, Duration renew) {
            this.lease = lease;
            this.renew = renew;
            return this;
        }

        /**
         * Replicas on the same PostgreSQL state ({@link #postgresState}): the first is started and
         * leads before the others start as standbys.
         */
        public Builder replicas(int count) {
            this.replicas = count;
            return this;
        }

        /** Serves gRPC over TLS with the certificates' server certificate; the client trusts their CA. */
        public Builder tls(TestingCertificates certificates) {
            this.tls = Optional.of(certificates);
            this.mutualTls = false;
            return this;
        }

        /** TLS that also requires a client certificate signed by their CA; the client presents one. */
        public Builder mutualTls(TestingCertificates certificates) {
            this.tls = Optional.of(certificates);
            this.mutualTls = true;
            return this;
        }

        /** No HTTP listener ({@code --metrics-addr ""}). */
        public Builder noHttp() {
            this.metrics = false;
            return this;
        }

        /** A process's stderr also appended to {@code file} (processes only). */
        public Builder logTo(Path file) {
            this.logFile = Optional.of(file);
            return this;
        }

        /** Any other flags, appended after the builder's own. */
        public Builder flags(String... more) {
            flags.addAll(List.of(more));
            return this;
        }

        public Builder flags(List<String> more) {
            flags.addAll(more);
            return this;
        }

        /**
         * The command line without {@code --addr} and {@code --metrics-addr}: the backend, state,
         * TLS and lease flags, {@code --reconcile-interval 0} unless given, on the real backend
         * {@code --ready-exec none} unless given, then {@link #flags}.
         */
        public List<String> arguments() {
            List<String> args = new ArrayList<>(backend);
            args.addAll(state);
            if (replicated) {
                args.addAll(List.of(
                        "--leader-lease", GoDuration.format(lease), "--leader-renew", GoDuration.format(renew)));
            }
            tls.ifPresent(certs -> {
                args.addAll(List.of(
                        "--tls-cert",
                        certs.serverCert().toString(),
                        "--tls-key",
                        certs.serverKey().toString()));
                if (mutualTls) {
                    args.addAll(List.of("--tls-ca", certs.caCert().toString()));
                }
            });
            if (!flags.contains("--reconcile-interval")) {
                args.addAll(List.of("--reconcile-interval", "0"));
            }
            if (backend.contains("proxmox") && !flags.contains("--ready-exec")) {
                // most tests' blobs join no cluster: a test of the readiness gate gives --ready-exec
                args.addAll(List.of("--ready-exec", "none"));
            }
            args.addAll(flags);
            return args;
        }

        /** Starts the provider (every replica) and returns once it serves; replica 0 leads. */
        public TestingProvider build() throws Exception {
            if (replicas > 1 && !replicated) {
                throw new IllegalStateException("replicas share PostgreSQL state: postgresState(...) first");
            }
            List<String> args = arguments();
            List<ProviderReplica> started = new ArrayList<>();
            TestingProvider provider = new TestingProvider(started);
            try {
                for (int i = 0; i < replicas; i++) {
                    int index = i;
                    Optional<Path> log =
                            logFile.map(f -> replicas == 1 ? f : f.resolveSibling(f.getFileName() + "." + index));
                    ProviderReplica r = new ProviderReplica(launch, args, metrics, tls, mutualTls, log);
                    started.add(r);
                    r.start();
                    if (replicated && i == 0 && replicas > 1 && metrics && !r.awaitReady(LEAD)) {
                        throw new AssertionError("the first replica did not lead: " + r.log());
                    }
                }
            } catch (Exception | Error e) {
                provider.close();
                throw e;
            }
            return provider;
        }
    }
}
