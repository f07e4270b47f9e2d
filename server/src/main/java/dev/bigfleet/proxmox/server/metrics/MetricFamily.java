package dev.bigfleet.proxmox.server.metrics;

import java.util.List;
import java.util.Objects;

/**
 * One exported metric: its Prometheus name, help text, type and label names. Histograms carry
 * their bucket upper bounds (without {@code +Inf}).
 */
public record MetricFamily(String name, String help, Type type, List<String> labelNames, Buckets buckets) {
    /** How the family is exported. */
    public enum Type {
        COUNTER,
        GAUGE,
        HISTOGRAM
    }

    public MetricFamily {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(help, "help");
        Objects.requireNonNull(type, "type");
        labelNames = List.copyOf(labelNames);
        if (type == Type.COUNTER && !name.endsWith("_total")) {
            throw new IllegalArgumentException("counter " + name + " must end in _total");
        }
        if ((type == Type.HISTOGRAM) != (buckets != null)) {
            throw new IllegalArgumentException(name + ": buckets are for histograms only");
        }
    }

    public static MetricFamily counter(String name, String help, String... labelNames) {
        return new MetricFamily(name, help, Type.COUNTER, List.of(labelNames), null);
    }

    public static MetricFamily gauge(String name, String help, String... labelNames) {
        return new MetricFamily(name, help, Type.GAUGE, List.of(labelNames), null);
    }

    public static MetricFamily histogram(String name, String help, Buckets buckets, String... labelNames) {
        return new MetricFamily(name, help, Type.HISTOGRAM, List.of(labelNames), buckets);
    }

    /** The name in exposition metadata: counters drop {@code _total}, which the writer appends. */
    String metadataName() {
        return type == Type.COUNTER ? name.substring(0, name.length() - "_total".length()) : name;
    }
}
