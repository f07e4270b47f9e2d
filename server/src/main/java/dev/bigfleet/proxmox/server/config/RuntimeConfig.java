package dev.bigfleet.proxmox.server.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The process' rhythm: how often the reconcile loop runs (zero: never) and how long in-flight RPCs
 * may finish on SIGTERM.
 */
public record RuntimeConfig(Duration reconcileInterval, Duration shutdownGrace) {
    public RuntimeConfig {
        Objects.requireNonNull(reconcileInterval, "reconcileInterval");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (reconcileInterval.isNegative() || shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("durations must not be negative");
        }
    }
}
