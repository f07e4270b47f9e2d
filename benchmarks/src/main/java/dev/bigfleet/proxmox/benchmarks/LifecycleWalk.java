package dev.bigfleet.proxmox.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of the throughput figures: each caller owns every n-th machine and walks them round
 * the lifecycle (Create, Configure, Drain, Delete), one call per machine per lap, counting calls
 * that were acknowledged after a warm-up.
 */
final class LifecycleWalk {
    /** Makes call number {@code step} (0-3) of the lifecycle on a machine; throws when refused. */
    interface Step {
        void call(String machineId, int step) throws Exception;
    }

    private LifecycleWalk() {}

    /** Acknowledged calls per second. */
    static double measure(List<String> ids, int callers, int seconds, Step step) throws InterruptedException {
        AtomicLong acked = new AtomicLong();
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < callers; c++) {
            List<String> mine = new ArrayList<>();
            for (int i = c; i < ids.size(); i += callers) {
                mine.add(ids.get(i));
            }
            Thread t = new Thread(() -> {
                int[] next = new int[mine.size()];
                int at = 0;
                while (!stop.get()) {
                    try {
                        step.call(mine.get(at), next[at]);
                        next[at] = (next[at] + 1) % 4;
                        if (measuring.get()) {
                            acked.incrementAndGet();
                        }
                    } catch (Exception refused) {
                        // still transitional from the last lap: try again on the next one
                    }
                    at = (at + 1) % mine.size();
                }
            });
            t.start();
            threads.add(t);
        }
        Thread.sleep(3_000); // warm-up
        measuring.set(true);
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        double rate = acked.get() / ((System.nanoTime() - start) / 1e9);
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        return rate;
    }
}
