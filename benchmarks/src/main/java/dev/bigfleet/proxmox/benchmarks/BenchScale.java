package dev.bigfleet.proxmox.benchmarks;

import java.nio.file.Path;
import java.util.Arrays;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How much a run measures: the figures of BENCHMARKS.md, or with {@code -Dbench.short=true} a short
 * run on small inventories that proves the harness still works (CI runs every {@code bench/*.sh}
 * so). {@code -Dbench.warmup} and {@code -Dbench.seconds} override the warm-up and the measured
 * time of the load.
 *
 * @param small the smaller inventory (machines)
 * @param large the larger inventory (machines)
 * @param warmupSeconds the load's warm-up before it is measured
 * @param measuredSeconds how long the load is measured
 * @param restarts how many restarts are timed
 */
record BenchScale(boolean isShort, int small, int large, int warmupSeconds, int measuredSeconds, int restarts) {
    static BenchScale fromSystemProperties() {
        boolean isShort = Boolean.getBoolean("bench.short");
        return new BenchScale(
                isShort,
                1_000,
                isShort ? 5_000 : 100_000,
                Integer.getInteger("bench.warmup", isShort ? 2 : 40),
                Integer.getInteger("bench.seconds", isShort ? 2 : 20),
                isShort ? 1 : 7);
    }

    /** Prints what the run measures, and where the providers' log goes. */
    void announce(Path log, String warmupNote) {
        System.out.printf(
                "provider log: %s; %d s warm-up%s, %d s measured%s%n",
                log, warmupSeconds, warmupNote, measuredSeconds, isShort ? "; a short run, small inventories" : "");
    }

    /**
     * JMH options for {@code benchmark}: its own iterations, or one short iteration of each, with
     * {@code machines} set to this scale's inventories.
     */
    ChainedOptionsBuilder jmh(Class<?> benchmark, int... machines) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("\\." + benchmark.getSimpleName() + "\\.")
                .param(
                        "machines",
                        Arrays.stream(machines).mapToObj(Integer::toString).toArray(String[]::new));
        if (isShort) {
            options.warmupIterations(1)
                    .warmupTime(TimeValue.seconds(1))
                    .measurementIterations(1)
                    .measurementTime(TimeValue.seconds(1));
        }
        return options;
    }

    /** The value at percentile {@code p} of {@code nanos}, in milliseconds. */
    static double percentileMillis(long[] nanos, int p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int index = Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, index)] / 1e6;
    }
}
