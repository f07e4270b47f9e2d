package dev.bigfleet.proxmox.server.bench;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Figures for durable state (BENCHMARKS.md): acknowledged mutations per second with 64 callers at
 * two inventory sizes, restart time to ready, state file size, and List latency. Runs the real
 * provider in this JVM on the fake backend with {@code --fake-latency 0} and {@code --state}.
 *
 * <p>Run with {@code bench/state-bench.sh}.
 */
public final class StateBenchmark {
    private static final int CALLERS = 64;

    public static void main(String[] args) throws Exception {
        int seconds = Integer.getInteger("bench.seconds", 15);
        Path dir = Files.createTempDirectory("state-bench");
        double engineSmall = EngineThroughput.measure(dir.resolve("engine-small.db"), 1_000, CALLERS, seconds);
        double engineLarge = EngineThroughput.measure(dir.resolve("engine-large.db"), 100_000, CALLERS, seconds);
        System.out.printf("engine (no gRPC): mutations/s at   1,000 machines: %,.0f%n", engineSmall);
        System.out.printf("engine (no gRPC): mutations/s at 100,000 machines: %,.0f (%.0f%% of the 1k figure)%n",
                engineLarge, 100 * engineLarge / engineSmall);
        double small = throughput(dir.resolve("small.db"), 1_000, seconds);
        double large = throughput(dir.resolve("large.db"), 100_000, seconds);
        System.out.printf("gRPC end to end: mutations/s at   1,000 machines: %,.0f%n", small);
        System.out.printf("gRPC end to end: mutations/s at 100,000 machines: %,.0f (%.0f%% of the 1k figure)%n",
                large, 100 * large / small);
        restartAndLists(dir.resolve("large.db"));
        EngineListLatency.measure(dir.resolve("list.db"));
    }

    private static String[] args(Path state, int machines) {
        return new String[] {"--proxmox-backend", "fake", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0",
            "--fake-latency", "0s", "--seed-count", Integer.toString(machines), "--reconcile-interval", "0",
            "--state", state.toString()};
    }

    /** 64 callers, each walking its own machines round the lifecycle; counts acknowledged calls. */
    private static double throughput(Path state, int machines, int seconds) throws Exception {
        try (RunningProvider provider = ProviderMain.start(args(state, machines))) {
            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                    .usePlaintext().maxInboundMessageSize(256 << 20).build();
            CapacityProviderBlockingStub stub = CapacityProviderGrpc.newBlockingStub(channel);
            List<String> ids = stub.list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                    .map(Machine::getId).toList();
            double rate = LifecycleWalk.measure(ids, CALLERS, seconds, (id, step) -> mutate(stub, id, step));
            channel.shutdownNow();
            return rate;
        }
    }

    private static void mutate(CapacityProviderBlockingStub stub, String id, int step) {
        switch (step) {
            case 0 -> stub.create(CreateRequest.newBuilder().setMachineId(id).build());
            case 1 -> stub.configure(ConfigureRequest.newBuilder().setMachineId(id).setClusterId("bench")
                    .putShardMetadata("pool", "general").build());
            case 2 -> stub.drain(DrainRequest.newBuilder().setMachineId(id).build());
            default -> stub.delete(DeleteRequest.newBuilder().setMachineId(id).build());
        }
    }

    /** Restart on the 100k state to /readyz 200, file size, and List latencies (server-side via loopback). */
    private static void restartAndLists(Path state) throws Exception {
        long size = Files.size(state) + sizeIfExists(state.resolveSibling(state.getFileName() + "-wal"));
        long start = System.nanoTime();
        try (RunningProvider provider = ProviderMain.start(args(state, 100_000))) {
            HttpClient http = HttpClient.newHttpClient();
            int code = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + provider.httpPort().orElseThrow()
                    + "/readyz")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            double restartSeconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("restart of 100,000 machines to /readyz %d: %.2f s (in-process start, JVM already warm)%n",
                    code, restartSeconds);
            System.out.printf("state file at 100,000 machines: %.1f MiB%n", size / 1048576.0);

            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", provider.grpcPort())
                    .usePlaintext().maxInboundMessageSize(256 << 20).build();
            CapacityProviderBlockingStub stub = CapacityProviderGrpc.newBlockingStub(channel);
            long[] full = new long[30];
            MachineList all = null;
            for (int i = 0; i < full.length; i++) {
                long t0 = System.nanoTime();
                all = stub.list(ListFilter.getDefaultInstance());
                full[i] = System.nanoTime() - t0;
            }
            System.out.printf("full List of %,d machines (client-observed, loopback): p50 %.1f ms, p99 %.1f ms%n",
                    all.getMachinesCount(), EngineListLatency.pct(full, 50), EngineListLatency.pct(full, 99));

            List<String> speculative = stub.list(ListFilter.newBuilder()
                    .addStates(dev.bigfleet.proxmox.proto.v1alpha1.MachineState.MACHINE_STATE_SPECULATIVE).build())
                    .getMachinesList().stream().map(Machine::getId).toList();
            int rounds = Math.min(100, speculative.size() / 100);
            long[] delta = new long[rounds];
            int returned = 0;
            for (int i = 0; i < rounds; i++) {
                ByteString before = latestCursor(stub);
                for (int m = 0; m < 100; m++) {
                    stub.create(CreateRequest.newBuilder().setMachineId(speculative.get(i * 100 + m)).build());
                }
                long t0 = System.nanoTime();
                returned = stub.list(ListFilter.newBuilder().setSinceRevision(before).build()).getMachinesCount();
                delta[i] = System.nanoTime() - t0;
            }
            System.out.printf("delta List, 100 changed of 100,000 (%d returned; client-observed over loopback, an upper"
                    + " bound of server time): p50 %.2f ms, p99 %.2f ms%n", returned, EngineListLatency.pct(delta, 50), EngineListLatency.pct(delta, 99));
            channel.shutdownNow();
        }
    }

    private static ByteString latestCursor(CapacityProviderBlockingStub stub) {
        // a filter that matches nothing returns just the current cursor
        return stub.list(ListFilter.newBuilder()
                .addStates(dev.bigfleet.proxmox.proto.v1alpha1.MachineState.MACHINE_STATE_UNSPECIFIED).build()).getRevision();
    }

    private static long sizeIfExists(Path p) throws java.io.IOException {
        return Files.exists(p) ? Files.size(p) : 0;
    }
}
