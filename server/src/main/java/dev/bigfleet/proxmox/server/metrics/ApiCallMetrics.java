package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.CallOutcome;
import java.time.Duration;

/** Where backends report their Proxmox API calls. */
public final class ApiCallMetrics implements ApiCallRecorder {
    /** The reference provider's operations, exported at zero from the start so rates work at once. */
    static final String[] KNOWN_OPS = {"CloneVM", "DeleteVM", "DescribeManaged", "EnsureRunning", "Configure", "Drain"};

    private final SeriesRegistry registry;

    public ApiCallMetrics(SeriesRegistry registry) {
        this.registry = registry;
        for (String op : KNOWN_OPS) {
            for (CallOutcome outcome : CallOutcome.values()) {
                registry.counter(Families.API_CALLS, op, outcome.label());
            }
            registry.histogram(Families.API_DURATION, op);
        }
    }

    @Override
    public void record(String op, boolean success, Duration duration) {
        record(op, success ? CallOutcome.SUCCESS : CallOutcome.ERROR, duration);
    }

    @Override
    public void record(String op, CallOutcome outcome, Duration duration) {
        registry.counter(Families.API_CALLS, op, outcome.label()).inc();
        registry.histogram(Families.API_DURATION, op).observe(duration);
    }
}
