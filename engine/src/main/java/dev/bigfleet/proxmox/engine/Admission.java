package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Admission and fencing: the rule order of a mutation (validate, fence, not found, idempotent retry,
 * position, accept), run as one change in its machine's sequence that ends when the change is
 * durable. An accepted transition is handed to the {@link TransitionRunner}.
 */
final class Admission {
    static final int UNKNOWN_FENCE_CAPACITY = 100_000;

    private final MachineTable table;
    private final TransitionRunner runner;
    private final UnknownMachineFences unknownFences = new UnknownMachineFences(UNKNOWN_FENCE_CAPACITY);

    private final FenceFloor floor;

    Admission(MachineTable table, TransitionRunner runner, FenceFloor floor) {
        this.table = table;
        this.runner = runner;
        this.floor = floor;
    }

    /**
     * Runs a lifecycle call. The result completes, usually on another thread, once the answer is
     * known and anything it changed is durable; it fails with a {@link CompletionException} around a
     * {@link RejectedException} when the call is refused.
     */
    CompletableFuture<Accepted> mutateAsync(MutationRequest request) {
        try {
            RequestLimits.check(request);
            MachineEntry entry = table.entry(request.machineId());
            if (entry == null) {
                fenceUnknown(request);
                throw notFound(request);
            }
            return entry.changes.then(() -> decide(entry, request));
        } catch (RejectedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static RejectedException notFound(MutationRequest request) {
        return new RejectedException(RejectionReason.NOT_FOUND, "machine not found: " + request.machineId());
    }

    /** The rule order, from the fence on, for a machine the engine holds. */
    private CompletableFuture<Accepted> decide(MachineEntry entry, MutationRequest request) throws RejectedException {
        if (!table.isVisible(entry)) {
            // retired while this call waited its turn: the fence still runs first, as for any unknown id
            fenceUnknown(request);
            throw notFound(request);
        }
        List<MarkWrite> marks = fence(entry, request);
        Machine current = entry.snapshot();
        TransitionKind kind = request.kind();
        LastOperation last = entry.lastOperation();
        if (last != null
                && last.kind() == kind
                && (current.state() == kind.transitional() || current.state() == kind.target())) {
            return persistMarks(marks).thenApply(done -> {
                if (kind == TransitionKind.CONFIGURE && !last.clusterId().equals(request.clusterId())) {
                    throw new CompletionException(new RejectedException(
                            RejectionReason.CONFLICT,
                            "machine "
                                    + current.id() + " is already "
                                    + current.state().name().toLowerCase(Locale.ROOT)
                                    + " for another cluster"));
                }
                return new Accepted(last.operationId(), current);
            });
        }
        if (current.state() != kind.source()) {
            RejectedException wrongState = new RejectedException(
                    RejectionReason.CONFLICT,
                    "cannot " + kind.label()
                            + " a machine in state " + current.state()
                            + (current.state() == MachineState.FAILED
                                    ? " (last_error: " + current.lastError() + ")"
                                    : ""));
            return persistMarks(marks).thenApply(done -> {
                throw new CompletionException(wrongState);
            });
        }
        return accept(entry, current, request, marks);
    }

    /** A mark that advanced must survive a restart even when the call then fails. */
    private CompletableFuture<Void> persistMarks(List<MarkWrite> marks) {
        if (marks.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return MachineTable.durable(table.store().write(StoreWrite.marksOnly(marks)))
                .handle((ok, error) -> {
                    if (error != null) {
                        throw unavailable(error);
                    }
                    return null;
                });
    }

    /** A store failure as the refusal a caller gets. */
    private static CompletionException unavailable(Throwable storeFailure) {
        return new CompletionException(new RejectedException(
                RejectionReason.UNAVAILABLE, Failures.unwrap(storeFailure).getMessage()));
    }

    /** Checks and advances the mark in memory; returns the write that makes the advance durable. */
    private List<MarkWrite> fence(MachineEntry entry, MutationRequest request) throws RejectedException {
        FenceToken token = request.token();
        if (token.bypassesFencing()) {
            return List.of();
        }
        checkFloor(request);
        FenceMark mark = entry.marks().get(token.shardId());
        if (mark != null && !token.isNewerThan(mark)) {
            table.observer().fenced(request.kind());
            throw fenced(token, request.machineId(), mark);
        }
        entry.marks().put(token.shardId(), token.asMark());
        return List.of(new MarkWrite(request.machineId(), token.shardId(), token.asMark()));
    }

    private void fenceUnknown(MutationRequest request) throws RejectedException {
        FenceToken token = request.token();
        if (token.bypassesFencing()) {
            return;
        }
        checkFloor(request);
        synchronized (unknownFences) {
            FenceMark mark = unknownFences.get(token.shardId(), request.machineId());
            if (mark != null && !token.isNewerThan(mark)) {
                table.observer().fenced(request.kind());
                throw fenced(token, request.machineId(), mark);
            }
            unknownFences.put(token.shardId(), request.machineId(), token.asMark());
        }
    }

    private void checkFloor(MutationRequest request) throws RejectedException {
        FenceToken token = request.token();
        if (floor.refuses(token)) {
            table.observer().fenced(request.kind());
            throw new RejectedException(
                    RejectionReason.FENCED,
                    "request fenced (stale shard token): shard \""
                            + token.shardId() + "\" sent (epoch=" + token.epoch() + " seq=" + token.sequence()
                            + ") for machine \"" + request.machineId() + "\"; the provider accepts no epoch below "
                            + floor.minEpoch() + " (--fence-min-epoch)");
        }
    }

    private static RejectedException fenced(FenceToken token, String machineId, FenceMark mark) {
        return new RejectedException(
                RejectionReason.FENCED,
                "request fenced (stale shard token): shard \""
                        + token.shardId() + "\" sent (epoch=" + token.epoch() + " seq=" + token.sequence()
                        + ") for machine \"" + machineId + "\"; high-water mark is (epoch=" + mark.epoch()
                        + " seq=" + mark.sequence() + ")");
    }

    private CompletableFuture<Accepted> accept(
            MachineEntry entry, Machine current, MutationRequest request, List<MarkWrite> marks) {
        TransitionKind kind = request.kind();
        String operationId = table.nextOperationId();
        Machine.Builder next = current.toBuilder().state(kind.transitional()).lastError("");
        if (kind == TransitionKind.CONFIGURE) {
            // visible for the whole CONFIGURING span, verbatim
            next.cluster(request.clusterId()).shardMetadata(request.shardMetadata());
        }
        Machine accepted = next.build();
        LastOperation previous = entry.lastOperation();
        Instant now = Instant.now();
        LastOperation operation = new LastOperation(
                kind,
                operationId,
                request.clusterId(),
                Optional.of(now.plus(runner.timeoutOf(kind))),
                kind == TransitionKind.DRAIN ? request.gracePeriodSeconds() : 0);
        entry.lastOperation(operation);
        return table.commit(entry, accepted, marks, OperationRecord.started(kind, operationId, now))
                .handle((done, error) -> {
                    if (error != null) {
                        entry.lastOperation(previous);
                        throw unavailable(error);
                    }
                    // only a durable accept starts work, so a restart never forgets a running transition
                    runner.start(new TransitionRunner.Run(entry, accepted, operation, request.bootstrapBlob()));
                    return new Accepted(operationId, accepted);
                });
    }
}
