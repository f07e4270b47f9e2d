package dev.bigfleet.proxmox.server.metrics;

/** Counts background reconcile runs by outcome. */
public final class ReconcileMetrics {
    private final SeriesRegistry registry;

    public ReconcileMetrics(SeriesRegistry registry) {
        this.registry = registry;
        registry.counter(Families.RECONCILES, "success");
        registry.counter(Families.RECONCILES, "error");
    }

    public void finished(boolean success) {
        registry.counter(Families.RECONCILES, success ? "success" : "error").inc();
    }
}
