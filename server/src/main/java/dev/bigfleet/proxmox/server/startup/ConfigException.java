package dev.bigfleet.proxmox.server.startup;

/** A configuration error: one line naming the flag or file entry and what is wrong. */
public final class ConfigException extends Exception {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
