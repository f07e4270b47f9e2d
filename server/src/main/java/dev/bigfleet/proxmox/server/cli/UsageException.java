package dev.bigfleet.proxmox.server.cli;

/** The command line asked for help or the version, or was malformed; carries the exit code. */
public final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    UsageException(int exitCode) {
        super("usage", null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
