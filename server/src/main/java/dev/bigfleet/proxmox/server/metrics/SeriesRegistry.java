package dev.bigfleet.proxmox.server.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The Dropwizard registry, addressed by labelled series instead of dotted names. Each series is
 * one Dropwizard metric; the registry remembers which series every Dropwizard name stands for so
 * the exporter can put the labels back.
 */
public final class SeriesRegistry {
    private final MetricRegistry registry = new MetricRegistry();
    private final Map<String, Series> byKey = new ConcurrentHashMap<>();
    private final Map<Series, Metric> metrics = new ConcurrentHashMap<>();
    private final Map<String, MetricFamily> families = new ConcurrentHashMap<>();

    public MetricRegistry dropwizard() {
        return registry;
    }

    /** Declares a family, so it is exported (with its HELP and TYPE) even before it has a series. */
    public MetricFamily declare(MetricFamily family) {
        MetricFamily previous = families.putIfAbsent(family.name(), family);
        if (previous != null && !previous.equals(family)) {
            throw new IllegalArgumentException("metric " + family.name() + " is declared twice, differently");
        }
        return family;
    }

    public Counter counter(MetricFamily family, String... labelValues) {
        return (Counter) metric(family, MetricFamily.Type.COUNTER, labelValues, Counter::new);
    }

    public BucketHistogram histogram(MetricFamily family, String... labelValues) {
        return (BucketHistogram)
                metric(family, MetricFamily.Type.HISTOGRAM, labelValues, () -> new BucketHistogram(family.buckets()));
    }

    /** Registers a gauge for the series; a second registration of the same series keeps the first. */
    public void gauge(MetricFamily family, Gauge<? extends Number> gauge, String... labelValues) {
        metric(family, MetricFamily.Type.GAUGE, labelValues, () -> gauge);
    }

    /** Registers a counter whose count is kept elsewhere. */
    public void counterView(MetricFamily family, LongSupplier count, String... labelValues) {
        metric(family, MetricFamily.Type.COUNTER, labelValues, () -> new CountingView(count));
    }

    /**
     * Registers a counter of a fractional total kept elsewhere (CPU or GC seconds). Dropwizard
     * counters are whole numbers, so it is a Dropwizard gauge that the export writes as a counter.
     */
    public void fractionalCounterView(MetricFamily family, DoubleSupplier total, String... labelValues) {
        metric(family, MetricFamily.Type.COUNTER, labelValues, () -> (Gauge<Double>) total::getAsDouble);
    }

    private Metric metric(
            MetricFamily family, MetricFamily.Type type, String[] labelValues, Supplier<? extends Metric> create) {
        if (family.type() != type) {
            throw new IllegalArgumentException(family.name() + " is a " + family.type() + ", not a " + type);
        }
        declare(family);
        Series series = new Series(family, Arrays.asList(labelValues));
        return metrics.computeIfAbsent(series, s -> {
            Metric m = create.get();
            String key = s.registryKey();
            byKey.put(key, s);
            registry.register(key, m);
            return m;
        });
    }

    Optional<Series> seriesOf(String registryKey) {
        return Optional.ofNullable(byKey.get(registryKey));
    }

    Collection<MetricFamily> families() {
        return List.copyOf(families.values());
    }

    /** Every histogram series, for the exporter: the bridge only knows Dropwizard's own types. */
    Map<Series, BucketHistogram> histograms() {
        Map<Series, BucketHistogram> out = new HashMap<>();
        metrics.forEach((series, metric) -> {
            if (metric instanceof BucketHistogram h) {
                out.put(series, h);
            }
        });
        return out;
    }
}
