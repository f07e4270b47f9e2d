package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.CallOutcome;
import java.time.Duration;

/**
 * Where the selected backend reports its Proxmox API calls. Only the ops it reports or declares
 * become series, so another backend's names never show.
 */
public final class ApiCallMetrics implements ApiCallRecorder {
    private final SeriesRegistry registry;

    public ApiCallMetrics(SeriesRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void declare(String op) {
        for (CallOutcome outcome : CallOutcome.values()) {
            registry.counter(Families.API_CALLS, op, outcome.label());
        }
        registry.histogram(Families.API_DURATION, op);
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
