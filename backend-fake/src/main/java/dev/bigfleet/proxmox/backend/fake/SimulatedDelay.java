package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;

/**
 * How long simulated work takes, and how it reacts to the engine giving up. Waits sleep in short
 * slices so a context that is cancelled without an interrupt is still noticed promptly.
 */
final class SimulatedDelay {
    private static final long SLICE_NANOS = Duration.ofMillis(10).toNanos();
    private static final Duration MAX_SLEEP = Duration.ofSeconds(1);

    /** How far past the deadline a slow-but-successful call finishes. */
    static final Duration SLOW_OK_OVERRUN = Duration.ofMillis(500);

    /**
     * A hung call gives up this long after its deadline even if nobody cancels it, so a caller that
     * forgets to cancel cannot pin a thread forever; the engine's own timeout fires long before.
     */
    static final Duration HANG_BACKSTOP = Duration.ofMinutes(1);

    private final Duration latency;

    SimulatedDelay(Duration latency) {
        this.latency = latency;
    }

    Duration latency() {
        return latency;
    }

    /** One step of simulated work: waits the latency, failing as soon as the context is cancelled. */
    void step(String what, OperationContext context) throws BackendException {
        checkCancelled(what, context);
        long end = System.nanoTime() + latency.toNanos();
        for (long left = latency.toNanos(); left > 0; left = end - System.nanoTime()) {
            sleepInterruptibly(Math.min(left, SLICE_NANOS), what, context);
            checkCancelled(what, context);
        }
    }

    /**
     * A guest command that never finishes: waits until the context is cancelled, then throws. Only
     * returns (the exception to throw) in the backstop case, hence {@code throw delay.hang(...)}.
     */
    BackendException hang(String what, OperationContext context) throws BackendException {
        Instant giveUp = saturatedPlus(context.deadline(), HANG_BACKSTOP);
        while (Instant.now().isBefore(giveUp)) {
            checkCancelled(what, context);
            sleepInterruptibly(SLICE_NANOS, what, context);
        }
        checkCancelled(what, context);
        return new BackendException(
                what + ": still running " + HANG_BACKSTOP.toSeconds() + "s after the deadline, giving up");
    }

    /**
     * Work that ignores cancellation and interruption alike and ends only after the deadline has
     * passed, the way a stuck actuator can complete after its caller has given up. The interrupt
     * flag is restored afterwards so the caller can still see it was interrupted.
     */
    void outlastDeadline(OperationContext context) {
        Instant until = saturatedPlus(context.deadline(), SLOW_OK_OVERRUN);
        boolean interrupted = Thread.interrupted();
        try {
            for (Duration left = Duration.between(Instant.now(), until);
                    left.compareTo(Duration.ZERO) > 0;
                    left = Duration.between(Instant.now(), until)) {
                try {
                    // capped before converting, since a far-off deadline would overflow toMillis
                    Duration nap = left.compareTo(MAX_SLEEP) > 0 ? MAX_SLEEP : left;
                    Thread.sleep(Math.max(1, nap.toMillis()));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void checkCancelled(String what, OperationContext context) throws BackendException {
        try {
            context.checkCancelled();
        } catch (BackendException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
    }

    private static void sleepInterruptibly(long nanos, String what, OperationContext context) throws BackendException {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            // keep the flag so checkCancelled (and anything above us) sees the interrupt
            Thread.currentThread().interrupt();
            checkCancelled(what, context);
        }
    }

    private static Instant saturatedPlus(Instant instant, Duration amount) {
        try {
            return instant.plus(amount);
        } catch (DateTimeException | ArithmeticException e) {
            return Instant.MAX;
        }
    }
}
