package dev.bigfleet.proxmox.server.startup;

/** Startup failed after configuration was valid (a port taken, the backend unreachable). */
public final class StartupException extends Exception {
    private static final long serialVersionUID = 1L;

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
