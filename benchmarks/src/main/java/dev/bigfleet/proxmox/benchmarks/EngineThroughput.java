package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.MutationRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Acknowledged mutations per second straight into the engine with durable state: the cost of
 * rules, locks and group-committed writes without a gRPC round trip.
 */
final class EngineThroughput {
    private EngineThroughput() {}

    static double measure(Path state, int machines, int callers, int seconds) throws Exception {
        try (BenchEngine bench = new BenchEngine(state, machines)) {
            List<String> ids = bench.slots.stream().map(Machine::id).toList();
            return LifecycleWalk.measure(ids, callers, seconds, (id, step) -> bench.engine.mutate(request(id, step)));
        }
    }

    private static MutationRequest request(String id, int step) {
        switch (step) {
            case 0:
                return MutationRequest.create(id, FenceToken.NONE);
            case 1:
                return MutationRequest.configure(id, FenceToken.NONE, "bench", new byte[0], Map.of("pool", "general"));
            case 2:
                return MutationRequest.drain(id, FenceToken.NONE, 0);
            default:
                return MutationRequest.delete(id, FenceToken.NONE);
        }
    }
}
