package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Polls something until it answers (a task ends, the guest agent replies, a clone lock clears),
 * with a Failsafe retry policy: the next poll soon, each later one a little later (up to a cap),
 * never past a limit or the transition's deadline, and stopping as soon as the transition is
 * cancelled.
 */
final class Polling {
    /** One poll: a value when done, empty for "not yet"; a {@link BackendException} ends the wait. */
    @FunctionalInterface
    interface Probe<T> {
        Optional<T> poll() throws BackendException;
    }

    private final Duration first;
    private final Duration max;

    /**
     * @param first the pause after the first poll
     * @param max the longest pause
     */
    Polling(Duration first, Duration max) {
        this.first = first;
        this.max = max;
    }

    /**
     * Polls until {@code probe} answers, {@code limit} passes or the context's deadline does.
     *
     * @return the answer, or empty when the limit or deadline came first
     * @throws BackendException what the probe threw, or "cancelled" when the transition ended
     */
    <T> Optional<T> until(Instant limit, OperationContext context, Probe<T> probe) throws BackendException {
        Instant end = limit.isBefore(context.deadline()) ? limit : context.deadline();
        Duration budget = Duration.between(Instant.now(), end);
        context.checkCancelled();
        if (budget.compareTo(first) <= 0) {
            return probe.poll(); // no time for a pause: one poll is all there is
        }
        RetryPolicy<Optional<T>> policy = RetryPolicy.<Optional<T>>builder()
                .handleResultIf(Optional::isEmpty)
                // a probe's exception is its answer, never a reason to poll again
                .abortOn(BackendException.class)
                .abortIf((answer, failure) -> context.isCancelled())
                .withBackoff(first, max.compareTo(first) > 0 ? max : first.plusMillis(1), 1.5)
                .withMaxRetries(-1)
                .withMaxDuration(budget)
                .build();
        try {
            Optional<T> answer = Failsafe.with(policy).get(probe::poll);
            context.checkCancelled();
            return answer;
        } catch (FailsafeException e) {
            if (e.getCause() instanceof BackendException failed) {
                throw failed;
            }
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                context.checkCancelled();
            }
            throw new BackendException("polling failed: " + e.getMessage(), e);
        }
    }
}
