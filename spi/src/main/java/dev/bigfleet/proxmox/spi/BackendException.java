package dev.bigfleet.proxmox.spi;

/**
 * A backend failure. Its message becomes the machine's {@code last_error} when it fails a
 * transition, so it must be one line for an operator and must never hold a secret (the API token,
 * the bootstrap blob).
 *
 * <p>A failure is either <em>definite</em> (the substrate refused: a missing template, a VM that
 * belongs to someone else, a bootstrap hook that exited non-zero) or {@link #isTransient()
 * transient} (the substrate could not be asked or could not answer: unreachable, overloaded, a
 * breaker open). The engine fails the transition at once on a definite failure; on a transient one
 * it tries again until the transition's deadline, so a transient failure must leave nothing that a
 * retry of the same call could not pick up. A failure whose outcome is unknown (a guest command sent
 * whose answer was lost) is definite: the engine must not send it again.
 *
 * <p>A Configure failure says whether the bootstrap hook had {@link #bootstrapStarted() started}:
 * from then on the VM may be a live Kubernetes node, which is drained before it is ever destroyed.
 */
public class BackendException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean isTransient;
    private final boolean bootstrapStarted;

    /** A definite failure. */
    public BackendException(String message) {
        this(message, null, false, false);
    }

    /** A definite failure with its cause. */
    public BackendException(String message, Throwable cause) {
        this(message, cause, false, false);
    }

    protected BackendException(String message, Throwable cause, boolean isTransient) {
        this(message, cause, isTransient, false);
    }

    protected BackendException(String message, Throwable cause, boolean isTransient, boolean bootstrapStarted) {
        super(message, cause);
        this.isTransient = isTransient;
        this.bootstrapStarted = bootstrapStarted;
    }

    /** A failure a later retry of the same call may overcome. */
    public static BackendException transientFailure(String message, Throwable cause) {
        return new BackendException(message, cause, true, false);
    }

    /** A definite failure of a bootstrap whose hook had started: the node may have joined its cluster. */
    public static BackendException afterBootstrapStarted(String message, Throwable cause) {
        return new BackendException(message, cause, false, true);
    }

    /** Whether a retry of the same call may succeed (see the class comment). */
    public boolean isTransient() {
        return isTransient;
    }

    /** Whether the bootstrap hook had started when this Configure failure happened. */
    public boolean bootstrapStarted() {
        return bootstrapStarted;
    }
}
