package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.TransitionKind;
import java.time.Instant;
import java.util.Objects;

/**
 * Why a machine is FAILED and where its cleanup stands: kept with the machine so the cleanup that
 * follows the retention goes on after a restart.
 *
 * @param kind the transition that failed
 * @param failedAt when it failed
 * @param bound whether its VM may be a live Kubernetes node (failed in Drain, or in Configure once the
 *     bootstrap hook had started): such a VM is drained again before it is destroyed
 * @param error the failure's own message, which {@code last_error} starts with
 * @param cleanupAttempts cleanups tried and failed so far
 * @param cleanupNotBefore when the next cleanup may start
 */
public record FailureRecord(
        TransitionKind kind,
        Instant failedAt,
        boolean bound,
        String error,
        int cleanupAttempts,
        Instant cleanupNotBefore) {
    public FailureRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(failedAt, "failedAt");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(cleanupNotBefore, "cleanupNotBefore");
    }

    /** A fresh failure: no cleanup tried yet. */
    public static FailureRecord of(TransitionKind kind, Instant failedAt, boolean bound, String error) {
        return new FailureRecord(kind, failedAt, bound, error, 0, failedAt);
    }

    /**
     * Whether an operator should look: its VM may be a live node and a cleanup (the drain before the
     * destroy) has already failed.
     */
    public boolean needsAttention() {
        return bound && cleanupAttempts > 0;
    }

    /** After a failed cleanup: one more attempt counted, the next not before {@code next}. */
    public FailureRecord afterFailedCleanup(Instant next) {
        return new FailureRecord(kind, failedAt, bound, error, cleanupAttempts + 1, next);
    }
}
