package dev.bigfleet.proxmox.server.startup;

/** A configuration error: one line naming the flag or file entry and what is wrong. */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
