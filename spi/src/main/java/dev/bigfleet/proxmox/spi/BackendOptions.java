package dev.bigfleet.proxmox.spi;

import dev.bigfleet.proxmox.api.GoDuration;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** Settings handed to a backend, keyed by flag name without the leading dashes. */
public final class BackendOptions {
    private final Map<String, String> values;

    public BackendOptions(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    public Optional<String> get(String name) {
        String v = values.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    public String string(String name, String fallback) {
        return get(name).orElse(fallback);
    }

    public boolean bool(String name) {
        return get(name).map(Boolean::parseBoolean).orElse(false);
    }

    /** A Go-style duration; a bad value is an error naming the flag. */
    public Duration duration(String name, Duration fallback) {
        Optional<String> v = get(name);
        if (v.isEmpty()) {
            return fallback;
        }
        try {
            return GoDuration.parse(v.get());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + name + ": " + e.getMessage());
        }
    }
}
