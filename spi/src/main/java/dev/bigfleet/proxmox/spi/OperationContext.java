package dev.bigfleet.proxmox.spi;

import java.time.Duration;
import java.time.Instant;

/**
 * The bounds of one backend call made for a transition: which machine and operation it serves, and
 * the deadline after which the engine has given up on it.
 *
 * <p>Honouring the deadline: a call that waits (for a task, a guest agent, a clone slot) waits no
 * longer than {@link #remaining()} and checks {@link #checkCancelled()} between steps. When the
 * deadline passes the engine marks the context cancelled and interrupts the thread running the
 * call; the call should then stop promptly by throwing a {@link BackendException}. Whatever it
 * returns after that is discarded.
 */
public interface OperationContext {
    /** The machine the call is made for. */
    String machineId();

    /** The operation id minted when the transition was accepted; a backend may record it. */
    String operationId();

    /** When the engine gives up on the transition. */
    Instant deadline();

    /** Whether the engine has given up (the deadline passed or the provider is stopping). */
    boolean isCancelled();

    /** Time left until the deadline; zero once it has passed. */
    default Duration remaining() {
        Duration left = Duration.between(Instant.now(), deadline());
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Throws when the engine has given up or the thread was interrupted, so long waits stop early. */
    default void checkCancelled() throws BackendException {
        if (isCancelled() || Thread.currentThread().isInterrupted()) {
            throw new BackendException("cancelled: the transition ended before the backend finished");
        }
    }
}
