package dev.bigfleet.proxmox.server.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.jvm.CachedThreadStatesGaugeSet;
import com.codahale.metrics.jvm.ClassLoadingGaugeSet;
import com.codahale.metrics.jvm.GarbageCollectorMetricSet;
import com.codahale.metrics.jvm.MemoryUsageGaugeSet;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * JVM memory, GC, threads and classes from Dropwizard's {@code metrics-jvm} gauge sets, renamed
 * from their dotted names to labelled series ({@code jvm.memory.pools.G1-Eden-Space.used} becomes
 * {@code jvm_memory_pool_used_bytes{pool="G1-Eden-Space"}}). Ratios and derived totals are left
 * out: Prometheus computes them from these. GC counts and times only grow, so they are counters.
 */
final class JvmMetrics {
    static final MetricFamily MEMORY_USED =
            MetricFamily.gauge("jvm_memory_used_bytes", "Used JVM memory by area.", "area");
    static final MetricFamily MEMORY_COMMITTED =
            MetricFamily.gauge("jvm_memory_committed_bytes", "Committed JVM memory by area.", "area");
    static final MetricFamily MEMORY_MAX =
            MetricFamily.gauge("jvm_memory_max_bytes", "Maximum JVM memory by area (-1 when undefined).", "area");
    static final MetricFamily POOL_USED =
            MetricFamily.gauge("jvm_memory_pool_used_bytes", "Used bytes of a JVM memory pool.", "pool");
    static final MetricFamily POOL_COMMITTED =
            MetricFamily.gauge("jvm_memory_pool_committed_bytes", "Committed bytes of a JVM memory pool.", "pool");
    static final MetricFamily POOL_MAX = MetricFamily.gauge(
            "jvm_memory_pool_max_bytes", "Maximum bytes of a JVM memory pool (-1 when undefined).", "pool");
    static final MetricFamily GC_COLLECTIONS = MetricFamily.counter(
            "jvm_gc_collections_total", "Collections run by a garbage collector since start.", "gc");
    static final MetricFamily GC_SECONDS = MetricFamily.counter(
            "jvm_gc_collection_seconds_total", "Time a garbage collector spent collecting since start.", "gc");
    static final MetricFamily THREADS = MetricFamily.gauge("jvm_threads_current", "Live JVM threads.");
    static final MetricFamily THREADS_DAEMON = MetricFamily.gauge("jvm_threads_daemon", "Live JVM daemon threads.");
    static final MetricFamily THREADS_PEAK = MetricFamily.gauge("jvm_threads_peak", "Peak live JVM threads.");
    static final MetricFamily THREADS_DEADLOCKED =
            MetricFamily.gauge("jvm_threads_deadlocked", "JVM threads in a deadlock.");
    static final MetricFamily THREADS_STATE = MetricFamily.gauge("jvm_threads_state", "JVM threads by state.", "state");
    static final MetricFamily CLASSES_LOADED = MetricFamily.gauge("jvm_classes_loaded", "Classes currently loaded.");

    private JvmMetrics() {}

    static void register(SeriesRegistry registry) {
        new MemoryUsageGaugeSet().getMetrics().forEach((name, metric) -> memory(registry, name, metric));
        new GarbageCollectorMetricSet().getMetrics().forEach((name, metric) -> gc(registry, name, metric));
        new CachedThreadStatesGaugeSet(1, TimeUnit.SECONDS)
                .getMetrics()
                .forEach((name, metric) -> threads(registry, name, metric));
        Map<String, Metric> classes = new ClassLoadingGaugeSet().getMetrics();
        registry.gauge(CLASSES_LOADED, number(classes.get("loaded")));
    }

    private static void memory(SeriesRegistry registry, String name, Metric metric) {
        String[] parts = name.split("\\.", -1);
        if (parts[0].equals("heap") || parts[0].equals("non-heap")) {
            String area = parts[0].equals("heap") ? "heap" : "nonheap";
            MetricFamily family = byKind(parts[1], MEMORY_USED, MEMORY_COMMITTED, MEMORY_MAX);
            if (family != null) {
                registry.gauge(family, number(metric), area);
            }
        } else if (parts[0].equals("pools") && parts.length == 3) {
            MetricFamily family = byKind(parts[2], POOL_USED, POOL_COMMITTED, POOL_MAX);
            if (family != null) {
                registry.gauge(family, number(metric), parts[1]);
            }
        }
    }

    private static MetricFamily byKind(String kind, MetricFamily used, MetricFamily committed, MetricFamily max) {
        return switch (kind) {
            case "used" -> used;
            case "committed" -> committed;
            case "max" -> max;
            default -> null;
        };
    }

    private static void gc(SeriesRegistry registry, String name, Metric metric) {
        int dot = name.lastIndexOf('.');
        String collector = name.substring(0, dot);
        Gauge<Number> value = number(metric);
        if (name.endsWith(".count")) {
            registry.counterView(GC_COLLECTIONS, () -> value.getValue().longValue(), collector);
        } else if (name.endsWith(".time")) {
            registry.fractionalCounterView(GC_SECONDS, () -> value.getValue().doubleValue() / 1000.0, collector);
        }
    }

    private static void threads(SeriesRegistry registry, String name, Metric metric) {
        switch (name) {
            case "count" -> registry.gauge(THREADS, number(metric));
            case "daemon.count" -> registry.gauge(THREADS_DAEMON, number(metric));
            case "peak.count" -> registry.gauge(THREADS_PEAK, number(metric));
            case "deadlock.count" -> registry.gauge(THREADS_DEADLOCKED, number(metric));
            default -> {
                if (name.endsWith(".count") && !name.startsWith("total_started")) {
                    String state =
                            name.substring(0, name.length() - ".count".length()).toUpperCase(Locale.ROOT);
                    registry.gauge(THREADS_STATE, number(metric), state);
                }
            }
        }
    }

    private static Gauge<Number> number(Metric metric) {
        Gauge<?> gauge = (Gauge<?>) metric;
        return () -> {
            Object v = gauge.getValue();
            return v instanceof Number n ? n : 0;
        };
    }
}
