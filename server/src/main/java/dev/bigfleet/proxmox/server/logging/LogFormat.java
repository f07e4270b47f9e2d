package dev.bigfleet.proxmox.server.logging;

import java.util.Locale;
import java.util.Optional;

/** How log lines are written to stderr: {@code text} for people, {@code json} for log pipelines. */
public enum LogFormat {
    TEXT,
    JSON;

    public static Optional<LogFormat> parse(String value) {
        try {
            return Optional.of(valueOf(value.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
