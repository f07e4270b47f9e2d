package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.BackendOptions;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * The fake's own settings.
 *
 * @param latency how long each simulated step (clone, start, agent boot, file write, exec) takes
 * @param faults whether the cluster-id and label fault selectors are honoured
 */
public record FakeSettings(Duration latency, boolean faults) {
    public static final Duration DEFAULT_LATENCY = Duration.ofMillis(200);

    public FakeSettings {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative, got " + latency);
        }
    }

    /**
     * Reads {@code latency} (Go duration, default 200ms, {@code 0s} for instant) and {@code faults}
     * (boolean, default false).
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option
     */
    public static FakeSettings from(BackendOptions options) {
        Duration latency = options.duration(FakeOptions.LATENCY);
        if (latency.isNegative()) {
            throw new IllegalArgumentException(options.where(FakeOptions.LATENCY) + ": must not be negative");
        }
        return new FakeSettings(latency, options.bool(FakeOptions.FAULTS));
    }

    @Override
    public String toString() {
        return "latency="
                + (latency.isZero() ? "0s" : latency.toString().substring(2).toLowerCase(Locale.ROOT)) + ", faults="
                + (faults ? "on" : "off");
    }
}
