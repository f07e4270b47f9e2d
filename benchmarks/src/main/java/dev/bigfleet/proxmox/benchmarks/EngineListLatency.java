package dev.bigfleet.proxmox.benchmarks;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.ListQuery;
import dev.bigfleet.proxmox.engine.MutationRequest;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** Server-side List latency at 100,000 machines: a delta with 100 changes, and the full list. */
final class EngineListLatency {
    private EngineListLatency() {}

    static void measure(Path state) throws Exception {
        try (BenchEngine bench = new BenchEngine(state, 100_000)) {
            LifecycleEngine engine = bench.engine;
            List<Machine> slots = bench.slots;
            int rounds = 500; // enough samples for a p99 that is not just the second-worst call
            long[] delta = new long[rounds];
            int returned = 0;
            for (int r = 0; r < rounds; r++) {
                byte[] cursor = engine.currentCursor();
                for (int m = 0; m < 100; m++) {
                    engine.mutate(MutationRequest.create(slots.get(r * 100 + m).id(), FenceToken.NONE));
                }
                // the List is timed once the hundred transitions are done, not against their commits
                for (int m = 0; m < 100; m++) {
                    while (engine.get(slots.get(r * 100 + m).id()).orElseThrow().state() != MachineState.IDLE) {
                        Thread.sleep(1);
                    }
                }
                long t0 = System.nanoTime();
                returned = engine.list(new ListQuery(Set.of(), 0, cursor))
                        .machines()
                        .size();
                delta[r] = System.nanoTime() - t0;
            }
            long[] full = new long[20];
            for (int i = 0; i < full.length; i++) {
                long t0 = System.nanoTime();
                engine.list(new ListQuery(Set.of(), 0, null));
                full[i] = System.nanoTime() - t0;
            }
            System.out.printf(
                    "engine delta List, 100 changed of 100,000 (%d returned): p50 %.3f ms, p99 %.3f ms%n",
                    returned, pct(delta, 50), pct(delta, 99));
            System.out.printf("engine full List of 100,000: p50 %.1f ms, p99 %.1f ms%n", pct(full, 50), pct(full, 99));
        }
    }

    static double pct(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
