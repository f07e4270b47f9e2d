package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.server.logging.LogFormat;
import java.util.Objects;

/**
 * How the process shows itself to operators: the log line format, and whether the admin page and
 * its JSON API are served. Read before the rest of the configuration so that every later line,
 * configuration warnings included, is already in the chosen format.
 */
public record ObservabilitySettings(LogFormat logFormat, boolean adminUi) {
    public ObservabilitySettings {
        Objects.requireNonNull(logFormat, "logFormat");
    }
}
