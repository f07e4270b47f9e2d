package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.TransitionKind;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The most recent operation accepted on a machine: what an idempotent retry is matched against, and
 * what a restart needs to drive an interrupted transition on under the same id and deadline.
 *
 * @param deadline when the transition's timeout ends; empty for operations recorded before it was kept
 * @param graceSeconds a Drain's grace period (0 for other kinds)
 */
public record LastOperation(
        TransitionKind kind, String operationId, String clusterId, Optional<Instant> deadline, long graceSeconds) {
    public LastOperation {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(deadline, "deadline");
    }

    /** An operation without a known deadline or grace period. */
    public LastOperation(TransitionKind kind, String operationId, String clusterId) {
        this(kind, operationId, clusterId, Optional.empty(), 0);
    }
}
