package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.server.logging.LogFormat;

/**
 * How the process shows itself to operators: the log line format, and whether the admin page and
 * its JSON API are served. Read before the rest of the configuration so that every later line,
 * configuration warnings included, is already in the chosen format.
 */
public record ObservabilitySettings(LogFormat logFormat, boolean adminUi) {
    public static ObservabilitySettings from(ProviderFlags f) throws ConfigException {
        LogFormat format = LogFormat.parse(f.logFormat).orElseThrow(() ->
                new ConfigException("--log-format: \"" + f.logFormat + "\" is not text or json"));
        return new ObservabilitySettings(format, f.adminUi);
    }
}
