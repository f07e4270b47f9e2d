package dev.bigfleet.proxmox.engine;

/** A write the store could not make durable; the change it carried was not acknowledged. */
public final class StoreFailure extends Exception {
    private static final long serialVersionUID = 1L;

    public StoreFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
