package dev.bigfleet.proxmox.engine;

/** A request the engine refused; nothing was changed except, possibly, an advanced fence mark. */
public final class RejectedException extends Exception {
    private static final long serialVersionUID = 1L;

    private final RejectionReason reason;

    public RejectedException(RejectionReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public RejectionReason reason() {
        return reason;
    }
}
