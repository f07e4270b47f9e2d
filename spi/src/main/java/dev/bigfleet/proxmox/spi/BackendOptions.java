package dev.bigfleet.proxmox.spi;

import dev.bigfleet.proxmox.api.GoDuration;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The values of a backend's {@link BackendOption options}, keyed by option name, and where each one
 * was set, so a backend's error can name what the operator typed ({@link #where(String)}). Only
 * options the backend declared reach it. Declared defaults are not filled in: read an option
 * through its {@link BackendOption} ({@link #get(BackendOption)}) to fall back to its default, so
 * the default is written once, where {@code --help} shows it.
 */
public final class BackendOptions {
    private final Map<String, String> values;
    private final Map<String, String> sources;

    private BackendOptions(Map<String, String> values, Map<String, String> sources) {
        this.values = Map.copyOf(values);
        this.sources = Map.copyOf(sources);
    }

    /** Values set in code (tests, embedding); errors name them as {@code --backend-opt NAME}. */
    public static BackendOptions of(Map<String, String> values) {
        return new BackendOptions(values, Map.of());
    }

    /** No option set. */
    public static BackendOptions empty() {
        return of(Map.of());
    }

    /**
     * Values with where each came from, as the operator would recognise it: {@code --proxmox-api-url},
     * {@code --backend-opt api-url}, {@code --backend-config /etc/bigfleet/backend.json: api-url}.
     */
    public static BackendOptions of(Map<String, String> values, Map<String, String> sources) {
        return new BackendOptions(values, sources);
    }

    /** The value, or empty when it is not set or set to the empty string. */
    public Optional<String> get(String name) {
        String v = values.get(name);
        return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
    }

    /** The value, else the option's declared default, else empty. */
    public Optional<String> get(BackendOption option) {
        return get(option.name()).or(option::defaultValue);
    }

    public String string(String name, String fallback) {
        return get(name).orElse(fallback);
    }

    /** The value, else the option's declared default, else the empty string. */
    public String string(BackendOption option) {
        return get(option).orElse("");
    }

    /** The names of the options that are set. */
    public Set<String> names() {
        return values.keySet();
    }

    /** How to name option {@code name} in an error: the flag or file entry that set it. */
    public String where(String name) {
        return sources.getOrDefault(name, "--backend-opt " + name);
    }

    /**
     * How to name {@code option} in an error: the flag or file entry that set it, else (when it is not
     * set) its first flag alias, else {@code --backend-opt NAME}.
     */
    public String where(BackendOption option) {
        String source = sources.get(option.name());
        if (source != null) {
            return source;
        }
        return option.flags().isEmpty()
                ? "--backend-opt " + option.name()
                : option.flags().get(0);
    }

    /**
     * A boolean in Go's forms ({@code true}, {@code 1}, {@code t}, ... and their false twins), so flags
     * carried over from the reference provider keep working; unset is {@code false}.
     *
     * @throws IllegalArgumentException naming the option, for anything else
     */
    public boolean bool(String name) {
        return parseBool(where(name), get(name));
    }

    /** {@link #bool(String)}, falling back to the option's declared default. */
    public boolean bool(BackendOption option) {
        return parseBool(where(option), get(option));
    }

    private static boolean parseBool(String where, Optional<String> v) {
        if (v.isEmpty()) {
            return false;
        }
        switch (v.get().trim()) {
            case "1", "t", "T", "TRUE", "true", "True":
                return true;
            case "0", "f", "F", "FALSE", "false", "False":
                return false;
            default:
                throw new IllegalArgumentException(where + ": invalid boolean \"" + v.get() + "\" (use true or false)");
        }
    }

    /**
     * A Go-style duration ({@code 500ms}, {@code 2m}).
     *
     * @throws IllegalArgumentException naming the option, for a malformed value
     */
    public Duration duration(String name, Duration fallback) {
        Optional<String> v = get(name);
        return v.isEmpty() ? fallback : parseDuration(where(name), v.get());
    }

    /**
     * {@link #duration(String, Duration)}, falling back to the option's declared default.
     *
     * @throws IllegalArgumentException when neither is set, or for a malformed value
     */
    public Duration duration(BackendOption option) {
        String v =
                get(option).orElseThrow(() -> new IllegalArgumentException(where(option) + ": a duration is required"));
        return parseDuration(where(option), v);
    }

    private static Duration parseDuration(String where, String v) {
        try {
            return GoDuration.parse(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
    }

    /** The names set, never their values: some are secrets. */
    @Override
    public String toString() {
        return "BackendOptions" + new LinkedHashMap<>(values).keySet();
    }
}
