package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.BackendOptions;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The fake's own settings.
 *
 * @param latency how long each simulated step (clone, start, agent boot, file write, exec) takes
 * @param faults whether the cluster-id and label fault selectors are honoured
 */
public record FakeSettings(Duration latency, boolean faults) {
    public static final String LATENCY_OPTION = "fake-latency";
    public static final String FAULTS_OPTION = "fake-faults";
    public static final Duration DEFAULT_LATENCY = Duration.ofMillis(200);

    public FakeSettings {
        Objects.requireNonNull(latency, "latency");
        if (latency.isNegative()) {
            throw new IllegalArgumentException("--" + LATENCY_OPTION + ": must not be negative, got " + latency);
        }
    }

    /**
     * Reads {@code fake-latency} (Go duration, default 200ms, {@code 0s} for instant) and
     * {@code fake-faults} (boolean, default false).
     *
     * @throws IllegalArgumentException with a one-line message naming the bad option
     */
    public static FakeSettings from(BackendOptions options) {
        Duration latency = options.duration(LATENCY_OPTION, DEFAULT_LATENCY);
        boolean faults = parseBool(FAULTS_OPTION, options.get(FAULTS_OPTION));
        return new FakeSettings(latency, faults);
    }

    // Go's strconv.ParseBool forms, so flags carried over from the reference provider keep working;
    // anything else is an error rather than a silent false.
    private static boolean parseBool(String name, Optional<String> value) {
        if (value.isEmpty()) {
            return false;
        }
        String v = value.get().trim();
        switch (v) {
            case "1", "t", "T", "TRUE", "true", "True":
                return true;
            case "0", "f", "F", "FALSE", "false", "False":
                return false;
            default:
                throw new IllegalArgumentException("--" + name + ": invalid boolean \"" + value.get()
                        + "\" (use true or false)");
        }
    }

    @Override
    public String toString() {
        return "latency=" + (latency.isZero() ? "0s" : latency.toString().substring(2).toLowerCase(Locale.ROOT))
                + ", faults=" + (faults ? "on" : "off");
    }
}
