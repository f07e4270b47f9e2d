package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;

/**
 * Waiting as the SPI asks: never past the transition's deadline, and stopping as soon as the engine
 * cancels the call or interrupts its thread. Sleeps in short slices so a cancellation without an
 * interrupt is noticed promptly too.
 */
final class CancellableWait {
    private static final long SLICE_MILLIS = 10;

    private CancellableWait() {}

    /**
     * Waits {@code duration}.
     *
     * @throws BackendException prefixed with {@code what}, when the call is cancelled or interrupted
     *     meanwhile, or when the deadline comes first
     */
    static void sleep(Duration duration, String what, OperationContext context) throws BackendException {
        Instant end = Instant.now().plus(duration);
        if (end.isAfter(context.deadline())) {
            throw new BackendException(what + ": takes " + duration.toMillis() + " ms, more than the "
                    + context.remaining().toMillis() + " ms left before the transition deadline");
        }
        check(what, context);
        for (Duration left = duration; left.compareTo(Duration.ZERO) > 0; left = Duration.between(Instant.now(), end)) {
            try {
                Thread.sleep(Math.min(SLICE_MILLIS, Math.max(1, left.toMillis())));
            } catch (InterruptedException e) {
                // keep the flag: whoever runs us must see the interrupt too
                Thread.currentThread().interrupt();
            }
            check(what, context);
        }
    }

    /** Throws, prefixed with {@code what}, when the engine has given up on the call. */
    static void check(String what, OperationContext context) throws BackendException {
        try {
            context.checkCancelled();
        } catch (BackendException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
    }
}
