package dev.bigfleet.proxmox.spi;

/** A backend failure; its message becomes the machine's {@code last_error}, so keep secrets out. */
public class BackendException extends Exception {
    public BackendException(String message) {
        super(message);
    }

    public BackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
