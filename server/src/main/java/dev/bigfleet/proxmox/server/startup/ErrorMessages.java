package dev.bigfleet.proxmox.server.startup;

/** Turns an exception chain into the one line an operator sees at startup. */
public final class ErrorMessages {
    private ErrorMessages() {}

    /** The message of the innermost cause (its class name if it has none), on one line. */
    public static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return m.replace('\n', ' ');
    }
}
