package dev.bigfleet.proxmox.spi;

import java.time.Duration;
import java.time.Instant;

/**
 * The bounds of one backend call made for a transition: which machine and operation it serves, and
 * the deadline after which the engine has given up on it. Cancellation also interrupts the thread.
 */
public interface OperationContext {
    String machineId();

    /** The operation id minted when the transition was accepted; a backend may record it. */
    String operationId();

    Instant deadline();

    boolean isCancelled();

    default Duration remaining() {
        Duration left = Duration.between(Instant.now(), deadline());
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Throws when the engine has given up, so long waits can stop early. */
    default void checkCancelled() throws BackendException {
        if (isCancelled() || Thread.currentThread().isInterrupted()) {
            throw new BackendException("cancelled: the transition ended before the backend finished");
        }
    }
}
