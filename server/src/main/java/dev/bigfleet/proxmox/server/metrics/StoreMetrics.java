package dev.bigfleet.proxmox.server.metrics;

import java.time.Duration;

/** Store commit latency and failures. */
public final class StoreMetrics {
    private final BucketHistogram commits;
    private final com.codahale.metrics.Counter errors;

    public StoreMetrics(SeriesRegistry registry) {
        this.commits = registry.histogram(Families.STORE_COMMIT_DURATION);
        this.errors = registry.counter(Families.STORE_COMMIT_ERRORS);
    }

    public void committed(Duration latency) {
        commits.observe(latency);
    }

    public void failed() {
        errors.inc();
    }
}
