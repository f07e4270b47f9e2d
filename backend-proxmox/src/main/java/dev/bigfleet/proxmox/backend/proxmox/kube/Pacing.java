package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Duration;
import java.time.Instant;

/**
 * The pauses between two looks at the cluster: short at first, each one half as long again as the
 * one before, up to a cap, and never past the deadline. A pause is cut short by an interrupt, which
 * ends the wait.
 */
record Pacing(Duration first, Duration max) {
    /** Readiness and drain as they run: 1 s, growing to 5 s. */
    static final Pacing DEFAULT = new Pacing(Duration.ofSeconds(1), Duration.ofSeconds(5));

    /** One wait's pauses. */
    Pauses start() {
        return new Pauses();
    }

    final class Pauses {
        private Duration next = first;

        /**
         * Sleeps until the next look, or until {@code deadline} when that is sooner.
         *
         * @throws BackendException when the thread is interrupted, saying what was being waited for
         */
        void pause(Instant deadline, String waitingFor) throws BackendException {
            Duration left = Duration.between(Instant.now(), deadline);
            Duration nap = left.compareTo(next) < 0 ? left : next;
            Duration grown = Duration.ofMillis((long) (next.toMillis() * 1.5));
            next = grown.compareTo(max) > 0 ? max : grown;
            if (nap.isNegative() || nap.isZero()) {
                return;
            }
            try {
                Thread.sleep(nap.toMillis(), 0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw interrupted(waitingFor);
            }
        }
    }

    /** The failure of a wait whose thread was interrupted (the transition was cancelled). */
    static BackendException interrupted(String waitingFor) {
        return new BackendException("cancelled while " + waitingFor);
    }
}
