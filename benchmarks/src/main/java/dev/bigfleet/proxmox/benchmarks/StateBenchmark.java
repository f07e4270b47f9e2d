package dev.bigfleet.proxmox.benchmarks;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.util.Statistics;

/**
 * Figures for durable state (BENCHMARKS.md). The provider runs as an operator runs it
 * ({@code bin/proxmox}, its own process) on the fake backend with {@code --fake-latency 0s} and
 * {@code --state}; this JVM is the load. Measured: acknowledged mutations per second with 64
 * callers at 1,000 and 100,000 machines; restart of the 100,000-machine state to {@code /readyz}
 * 200 after a SIGKILL under that load; the state file's size; List latencies. Engine-level figures
 * (no gRPC, no process) come last, from the JMH benchmarks {@link EngineListBenchmark} and {@link
 * EngineMutationBenchmark}.
 *
 * <p>Run with {@code bench/state-bench.sh} ({@code --short}: small inventories, a few seconds each).
 */
public final class StateBenchmark {
    private static final int CALLERS = 64;

    public static void main(String[] args) throws Exception {
        BenchScale scale = BenchScale.fromSystemProperties();
        int warmup = scale.warmupSeconds();
        int seconds = scale.measuredSeconds();
        Path dir = Files.createTempDirectory("state-bench");
        Path log = dir.resolve("provider.log");
        scale.announce(log, " (the JIT settles)");

        GrpcLifecycleLoad.Figures small =
                throughput(dir.resolve("small.db"), log, scale.small(), warmup, seconds, false);
        GrpcLifecycleLoad.Figures large =
                throughput(dir.resolve("large.db"), log, scale.large(), warmup, seconds, true);
        System.out.printf(
                "gRPC, 64 callers, %,d machines: %,.0f acknowledged mutations/s (%,.0f refused/s)%n",
                scale.small(), small.acknowledgedPerSecond(), small.refusedPerSecond());
        System.out.printf(
                "gRPC, 64 callers, %,d machines: %,.0f acknowledged mutations/s (%,.0f refused/s),"
                        + " %.0f%% of the %,d figure%n",
                scale.large(),
                large.acknowledgedPerSecond(),
                large.refusedPerSecond(),
                100 * large.acknowledgedPerSecond() / small.acknowledgedPerSecond(),
                scale.small());

        restarts(dir.resolve("large.db"), log, scale);
        lists(dir.resolve("lists.db"), log, scale.large());
        engine(scale);
    }

    /** The engine-level figures (no gRPC, no process): the JMH benchmarks, in a JVM of their own. */
    private static void engine(BenchScale scale) throws RunnerException {
        for (RunResult r :
                new Runner(scale.jmh(EngineListBenchmark.class, scale.large()).build()).run()) {
            Statistics latency = r.getPrimaryResult().getStatistics();
            System.out.printf(
                    "engine %s at %s machines: p50 %.3f ms, p99 %.3f ms (%,d samples)%n",
                    r.getParams().getBenchmark().replaceAll(".*\\.", ""),
                    r.getParams().getParam("machines"),
                    latency.getPercentile(50),
                    latency.getPercentile(99),
                    latency.getN());
        }
        for (RunResult r : new Runner(scale.jmh(EngineMutationBenchmark.class, scale.small(), scale.large())
                        .build())
                .run()) {
            System.out.printf(
                    "engine (no gRPC, 64 callers in one JVM), %s machines: %,.0f acknowledged mutations/s%n",
                    r.getParams().getParam("machines"), r.getPrimaryResult().getScore());
        }
    }

    private static String[] flags(Path state, int machines) {
        return new String[] {"--seed-count", Integer.toString(machines), "--state", state.toString()};
    }

    /**
     * Seeds a fresh state, drives the load, and reports the measured rate. With {@code crash},
     * the provider is SIGKILLed while the load still runs, leaving the file as a crash does.
     */
    private static GrpcLifecycleLoad.Figures throughput(
            Path state, Path log, int machines, int warmup, int seconds, boolean crash) throws Exception {
        try (TestingProvider provider = Providers.start(log, flags(state, machines))) {
            System.out.printf(
                    "first start, seeding %,d machines: ready after %.2f s%n",
                    machines, Providers.readySeconds(provider));
            GrpcLifecycleLoad load = new GrpcLifecycleLoad(provider.grpcPort());
            load.start(CALLERS);
            Thread.sleep(warmup * 1000L);
            double cpu0 = Providers.cpuSeconds(provider);
            long t0 = System.nanoTime();
            GrpcLifecycleLoad.Figures figures = load.measure(seconds);
            double cores = (Providers.cpuSeconds(provider) - cpu0) / ((System.nanoTime() - t0) / 1e9);
            System.out.printf(
                    "  %,d machines: %,.0f acknowledged/s, provider using %.2f of 2 cores%n",
                    machines, figures.acknowledgedPerSecond(), cores);
            if (crash) {
                load.halt();
                provider.kill(); // the last calls are still in flight
            }
            load.close();
            return figures;
        }
    }

    /** Restarts on the state a crash left, to /readyz 200, SIGKILLing each. */
    private static void restarts(Path state, Path log, BenchScale scale) throws Exception {
        int machines = scale.large();
        int restarts = scale.restarts();
        // let this JVM settle after driving the load, so the restarts share the cores with nothing else
        System.gc();
        Thread.sleep(3_000);
        System.out.printf(
                "state file at %,d machines: %.1f MiB (with its WAL), %,d journal rows not yet folded%n",
                machines, sizeWithWal(state) / 1048576.0, journalRows(state));
        double[] ready = new double[restarts];
        for (int i = 0; i < restarts; i++) {
            try (TestingProvider provider = Providers.start(log, flags(state, machines))) {
                ready[i] = Providers.readySeconds(provider);
                provider.kill();
            }
        }
        Path empty = Files.createTempDirectory("empty-state").resolve("state.db");
        double emptyStart;
        try (TestingProvider provider = Providers.start(log, "--seed-count", "32", "--state", empty.toString())) {
            emptyStart = Providers.readySeconds(provider);
        }
        Arrays.sort(ready);
        System.out.printf(
                "restart of %,d machines to /readyz 200 (bin/proxmox, cold JVM, after SIGKILL):"
                        + " median %.2f s, best %.2f s, worst %.2f s; a fresh 32-machine provider: %.2f s%n",
                machines, ready[restarts / 2], ready[0], ready[restarts - 1], emptyStart);
    }

    /** Full List and a delta List of 100 changes on a fresh state, client-observed over loopback. */
    private static void lists(Path state, Path log, int machines) throws Exception {
        try (TestingProvider provider = Providers.start(log, flags(state, machines))) {
            Providers.readySeconds(provider);
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                    .usePlaintext()
                    .maxInboundMessageSize(256 << 20)
                    .build();
            CapacityProviderBlockingStub stub = CapacityProviderGrpc.newBlockingStub(channel);
            long[] full = new long[30];
            MachineList all = null;
            for (int i = 0; i < full.length; i++) {
                long t0 = System.nanoTime();
                all = stub.list(ListFilter.getDefaultInstance());
                full[i] = System.nanoTime() - t0;
            }
            System.out.printf(
                    "full List of %,d machines (client-observed, %.0f MB): p50 %.0f ms, p99 %.0f ms%n",
                    all.getMachinesCount(),
                    all.getSerializedSize() / 1e6,
                    BenchScale.percentileMillis(full, 50),
                    BenchScale.percentileMillis(full, 99));
            List<String> speculative = new ArrayList<>();
            for (Machine m : stub.list(ListFilter.newBuilder()
                            .addStates(MachineState.MACHINE_STATE_SPECULATIVE)
                            .build())
                    .getMachinesList()) {
                speculative.add(m.getId());
            }
            int rounds = Math.min(100, speculative.size() / 100);
            long[] delta = new long[rounds];
            for (int i = 0; i < rounds; i++) {
                ByteString before = stub.list(ListFilter.newBuilder()
                                .addStates(MachineState.MACHINE_STATE_UNSPECIFIED)
                                .build())
                        .getRevision();
                for (int m = 0; m < 100; m++) {
                    stub.create(CreateRequest.newBuilder()
                            .setMachineId(speculative.get(i * 100 + m))
                            .build());
                }
                long t0 = System.nanoTime();
                stub.list(ListFilter.newBuilder().setSinceRevision(before).build());
                delta[i] = System.nanoTime() - t0;
            }
            System.out.printf(
                    "delta List, 100 changed of %,d (client-observed, an upper bound of server time):"
                            + " p50 %.2f ms, p99 %.2f ms%n",
                    machines, BenchScale.percentileMillis(delta, 50), BenchScale.percentileMillis(delta, 99));
            channel.shutdownNow();
        }
    }

    private static long sizeWithWal(Path state) throws java.io.IOException {
        Path wal = state.resolveSibling(state.getFileName() + "-wal");
        return Files.size(state) + (Files.exists(wal) ? Files.size(wal) : 0);
    }

    private static long journalRows(Path state) throws Exception {
        // a copy, so reading it (which recovers the WAL) leaves the crashed file exactly as it was
        Path copy = Files.createTempDirectory("journal-count").resolve("state.db");
        Files.copy(state, copy);
        Path wal = state.resolveSibling(state.getFileName() + "-wal");
        if (Files.exists(wal)) {
            Files.copy(wal, copy.resolveSibling("state.db-wal"));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM journal")) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
