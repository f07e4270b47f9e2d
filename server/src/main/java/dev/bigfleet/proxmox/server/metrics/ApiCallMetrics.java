package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import java.time.Duration;

/** Where backends report their Proxmox API calls. */
public final class ApiCallMetrics implements ApiCallRecorder {
    /** The reference provider's operations, exported at zero from the start so rates work at once. */
    static final String[] KNOWN_OPS = {"CloneVM", "DeleteVM", "DescribeManaged", "EnsureRunning", "Configure", "Drain"};

    private final SeriesRegistry registry;

    public ApiCallMetrics(SeriesRegistry registry) {
        this.registry = registry;
        for (String op : KNOWN_OPS) {
            registry.counter(Families.API_CALLS, op, "success");
            registry.counter(Families.API_CALLS, op, "error");
            registry.histogram(Families.API_DURATION, op);
        }
    }

    @Override
    public void record(String op, boolean success, Duration duration) {
        registry.counter(Families.API_CALLS, op, success ? "success" : "error").inc();
        registry.histogram(Families.API_DURATION, op).observe(duration);
    }
}
