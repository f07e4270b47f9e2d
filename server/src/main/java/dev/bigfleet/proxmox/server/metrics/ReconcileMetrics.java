package dev.bigfleet.proxmox.server.metrics;

/** Counts background reconcile runs by outcome, and remembers when one last succeeded. */
public final class ReconcileMetrics {
    private final SeriesRegistry registry;
    private volatile long lastSuccessMillis;

    public ReconcileMetrics(SeriesRegistry registry) {
        this.registry = registry;
        registry.counter(Families.RECONCILES, "success");
        registry.counter(Families.RECONCILES, "error");
        registry.gauge(Families.LAST_RECONCILE_SUCCESS, () -> lastSuccessMillis / 1000.0);
    }

    public void finished(boolean success) {
        registry.counter(Families.RECONCILES, success ? "success" : "error").inc();
        if (success) {
            lastSuccessMillis = System.currentTimeMillis();
        }
    }

    /** When a pass last succeeded, if one has. */
    public java.util.Optional<java.time.Instant> lastSuccess() {
        long at = lastSuccessMillis;
        return at == 0 ? java.util.Optional.empty() : java.util.Optional.of(java.time.Instant.ofEpochMilli(at));
    }
}
