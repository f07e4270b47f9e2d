package dev.bigfleet.proxmox.engine.store;

/** The state store cannot be opened, read or written; the message is one line for operators. */
public final class StoreException extends Exception {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
