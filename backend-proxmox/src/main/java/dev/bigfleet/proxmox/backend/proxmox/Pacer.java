package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;

/**
 * The rhythm of a polling loop: the first wait is short, each next one longer (up to a cap), and
 * no wait runs past the limit or the transition's deadline, or survives a cancellation.
 */
final class Pacer {
    private final Duration max;
    private final Instant limit;
    private final OperationContext context;
    private Duration next;

    /**
     * @param first the first pause
     * @param max the longest pause
     * @param limit when the caller gives up (the transition deadline also applies)
     */
    Pacer(Duration first, Duration max, Instant limit, OperationContext context) {
        this.next = first;
        this.max = max;
        this.limit = limit.isBefore(context.deadline()) ? limit : context.deadline();
        this.context = context;
    }

    /** Whether the limit (or deadline) has passed. */
    boolean expired() {
        return !Instant.now().isBefore(limit);
    }

    /**
     * Sleeps for the next pause (shortened to the limit).
     *
     * @return false when the limit was already reached, so the loop should give up
     * @throws BackendException when the transition was cancelled
     */
    boolean pause() throws BackendException {
        context.checkCancelled();
        Duration left = Duration.between(Instant.now(), limit);
        if (left.isNegative() || left.isZero()) {
            return false;
        }
        Duration sleep = next.compareTo(left) < 0 ? next : left;
        next = next.multipliedBy(3).dividedBy(2);
        if (next.compareTo(max) > 0) {
            next = max;
        }
        try {
            Thread.sleep(Math.max(1, sleep.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            context.checkCancelled();
        }
        return true;
    }
}
