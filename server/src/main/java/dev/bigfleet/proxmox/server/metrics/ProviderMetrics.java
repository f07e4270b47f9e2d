package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.server.build.BuildInfo;
import io.prometheus.metrics.core.metrics.Info;
import io.prometheus.metrics.instrumentation.jvm.ProcessMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Clock;
import java.util.function.LongSupplier;

/**
 * Every metric of one provider process, in one Dropwizard registry, and the parts that feed it
 * (the gRPC interceptor that counts calls is in the gRPC package and feeds {@link #registry()}).
 */
public final class ProviderMetrics {
    private final SeriesRegistry registry = new SeriesRegistry();
    private final StateClock stateClock;
    private final EngineMetrics engine;
    private final ApiCallMetrics apiCalls;
    private final ReconcileMetrics reconciles;
    private final StoreMetrics store;
    private final PrometheusRegistry prometheus = new PrometheusRegistry();

    public ProviderMetrics(Clock clock, BuildInfo build) {
        stateClock = new StateClock(clock);
        engine = new EngineMetrics(registry, stateClock);
        apiCalls = new ApiCallMetrics(registry);
        reconciles = new ReconcileMetrics(registry);
        store = new StoreMetrics(registry);
        JvmMetrics.register(registry);
        prometheus.register(new LabelledExport(registry));
        // an info metric (value 1, the facts as labels), a type of the Prometheus client, not Dropwizard's
        Info.builder()
                .name(Families.PREFIX + "build_info")
                .help("The running provider's version and git commit.")
                .labelNames("version", "commit")
                .register(prometheus)
                .setLabelValues(build.version(), build.commit());
        // process_cpu_seconds_total, process_resident_memory_bytes, process_open_fds, ...: the
        // Prometheus client's own collector, the convention's reference (Dropwizard has no RSS or fds)
        ProcessMetrics.builder().register(prometheus);
    }

    public static ProviderMetrics create() {
        return new ProviderMetrics(Clock.systemUTC(), BuildInfo.current());
    }

    /** Exports a count kept by another component (the recovered-panic count) as {@code _panics_total}. */
    public void countPanics(LongSupplier recovered) {
        registry.counterView(Families.PANICS, recovered);
    }

    public SeriesRegistry registry() {
        return registry;
    }

    public StateClock stateClock() {
        return stateClock;
    }

    public EngineMetrics engine() {
        return engine;
    }

    public ApiCallMetrics apiCalls() {
        return apiCalls;
    }

    public ReconcileMetrics reconciles() {
        return reconciles;
    }

    public StoreMetrics store() {
        return store;
    }

    public MetricSnapshots scrape() {
        return prometheus.scrape();
    }
}
