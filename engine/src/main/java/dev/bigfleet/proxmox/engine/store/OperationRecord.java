package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.TransitionKind;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One operation in a machine's history: which transition, under which operation id, when it was
 * accepted and when and how it ended. The engine writes one when an operation is accepted and again
 * when it ends, each with the change that starts or ends it; a store keeps the newest {@link
 * #KEPT_PER_MACHINE} of each machine.
 *
 * @param startedAt when it was accepted; empty in an end record written without it (after a
 *     restart) and in a stored record whose start was never recorded
 * @param endedAt when it ended; empty while it runs
 * @param error why it did not succeed, one line; empty otherwise
 */
public record OperationRecord(
        TransitionKind kind,
        String operationId,
        Optional<Instant> startedAt,
        Optional<Instant> endedAt,
        OperationOutcome outcome,
        String error) {
    /** How many operations a store keeps per machine, the newest. */
    public static final int KEPT_PER_MACHINE = 10;

    public OperationRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(operationId, "operationId");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
        Objects.requireNonNull(outcome, "outcome");
        error = error == null ? "" : error;
        if ((outcome == OperationOutcome.RUNNING) != endedAt.isEmpty()) {
            throw new IllegalArgumentException("an operation has an end exactly when it is not running");
        }
    }

    /** An operation accepted at {@code at}. */
    public static OperationRecord started(TransitionKind kind, String operationId, Instant at) {
        return new OperationRecord(kind, operationId, Optional.of(at), Optional.empty(), OperationOutcome.RUNNING, "");
    }

    /** The end of an operation; the store keeps the start it recorded. */
    public static OperationRecord ended(
            TransitionKind kind, String operationId, Instant at, OperationOutcome outcome, String error) {
        if (outcome == OperationOutcome.RUNNING) {
            throw new IllegalArgumentException("an ended operation is not running");
        }
        return new OperationRecord(kind, operationId, Optional.empty(), Optional.of(at), outcome, error);
    }

    /**
     * This record written over {@code stored}, the record a store holds for the same operation: the
     * newer end and outcome, the start of whichever has one.
     */
    public OperationRecord over(OperationRecord stored) {
        return new OperationRecord(kind, operationId, startedAt.or(stored::startedAt), endedAt, outcome, error);
    }
}
