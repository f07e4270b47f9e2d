package dev.bigfleet.proxmox.engine.store;

/** The state store cannot be opened, read or written; the message is one line for operators. */
public final class StoreException extends Exception {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
