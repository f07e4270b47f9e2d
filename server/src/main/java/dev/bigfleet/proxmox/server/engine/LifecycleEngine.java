package dev.bigfleet.proxmox.server.engine;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.failsafe.Failsafe;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authoritative inventory and the rules of the wire contract. Each mutation runs the rule
 * order (validate, fence, not found, idempotent retry, position, accept) as one change in its
 * machine's {@link ChangeSequence}, which ends when the change is durable; no thread waits for
 * that. The substrate work then runs on {@code workers}, bounded by the kind's timeout, and its
 * outcome is applied only if the machine is still in that operation's transitional state.
 */
public final class LifecycleEngine {
    private static final Logger log = LoggerFactory.getLogger(LifecycleEngine.class);
    static final int UNKNOWN_FENCE_CAPACITY = 100_000;

    private final Map<String, MachineEntry> machines = new ConcurrentHashMap<>();
    private final UnknownMachineFences unknownFences = new UnknownMachineFences(UNKNOWN_FENCE_CAPACITY);
    private final RevisionIndex index;
    private final StateStore store;
    private final AtomicLong lastOperationNumber = new AtomicLong();
    private final TransitionWork work;
    private final TransitionTimeouts timeouts;
    private final ExecutorService workers;
    private final CursorCodec cursors;
    private final EngineObserver observer;

    public LifecycleEngine(TransitionWork work, TransitionTimeouts timeouts, ExecutorService workers,
            StateStore store, EngineObserver observer) {
        this.work = work;
        this.timeouts = timeouts;
        this.workers = workers;
        this.store = store;
        this.index = new RevisionIndex(store);
        this.cursors = new CursorCodec(store.cursorKey());
        this.observer = observer;
    }

    // ---- writes --------------------------------------------------------------------------------

    /**
     * Every change to a machine goes through here: a new revision and one store write (with any
     * fence marks that advanced). The result completes once the change is durable and visible,
     * after the observer has heard of it; it fails with a {@link StoreFailure} if the write did.
     */
    private CompletableFuture<Void> commit(MachineEntry entry, Machine next, List<MarkWrite> marks) {
        Machine before = entry.revision() == 0 ? null : entry.snapshot();
        LastOperation last = entry.lastOperation();
        return durable(index.stamp(entry, next, revision -> new StoreWrite(next, last, marks, null, revision,
                lastOperationNumber.get(), null)))
                .thenRun(() -> observer.machineChanged(before, next));
    }

    /** A store write's future, failing with a {@link StoreFailure} when the write did. */
    private static CompletableFuture<Void> durable(CompletableFuture<Void> write) {
        return write.handle((ok, error) -> {
            if (error != null) {
                throw new CompletionException(storeFailure(error));
            }
            return null;
        });
    }

    private static StoreFailure storeFailure(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        return new StoreFailure("state store write failed: " + cause.getMessage(), cause);
    }

    /** Waits for a change made outside the RPC path (startup, reconcile), as a checked failure. */
    private static <T> T await(CompletableFuture<T> change) throws StoreFailure {
        try {
            return change.join();
        } catch (CompletionException | CancellationException e) {
            Throwable cause = Failures.unwrap(e);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw cause instanceof StoreFailure failure ? failure : storeFailure(cause);
        }
    }

    private static <T> void awaitAll(List<CompletableFuture<T>> changes) throws StoreFailure {
        for (CompletableFuture<T> change : changes) {
            await(change);
        }
    }

    /** Whether {@code entry} is a machine callers can see: known, durable, not retired. */
    private boolean isVisible(MachineEntry entry) {
        return entry.revision() != 0 && machines.get(entry.snapshot().id()) == entry;
    }

    // ---- restart -------------------------------------------------------------------------------

    /** Puts back one machine a durable store held, with its revision, marks and last operation. */
    public void restore(StoredMachine stored) {
        MachineEntry entry = new MachineEntry(stored.machine());
        entry.lastOperation(stored.lastOperation());
        entry.marks().putAll(stored.marks());
        machines.put(stored.machine().id(), entry);
        index.restore(entry, stored.machine(), stored.revision());
        observer.machineChanged(null, stored.machine());
    }

    /** After every machine is back: numbering continues after the stored counters. */
    public void restored(StoredCounters counters) {
        index.resumeAfter(counters.revision());
        lastOperationNumber.set(counters.lastOperationNumber());
    }

    /**
     * After a restart nothing is running: every machine left in a transitional state becomes
     * FAILED, saying which transition was interrupted.
     *
     * @return how many machines were failed
     */
    public int failInterruptedTransitions() throws StoreFailure {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (MachineEntry entry : machines.values()) {
            if (entry.snapshot().state().isTransitional()) {
                writes.add(entry.changes.then(() -> {
                    Machine m = entry.snapshot();
                    TransitionKind kind = TransitionKind.forTransitional(m.state());
                    LastOperation last = entry.lastOperation();
                    String error = kind.label() + " transition" + (last == null ? "" : " " + last.operationId())
                            + " was interrupted by a provider restart";
                    return commit(entry, m.toBuilder().state(MachineState.FAILED).lastError(error).build(), List.of());
                }));
            }
        }
        awaitAll(writes);
        return writes.size();
    }

    /**
     * Fails a stable machine the substrate lost, unless it changed since {@code seen} was read.
     *
     * @return whether it was failed
     */
    public boolean failIfUnchanged(Machine seen, String error) throws StoreFailure {
        MachineEntry entry = machines.get(seen.id());
        if (entry == null) {
            return false;
        }
        return await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            if (!current.equals(seen) || !isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            log.warn("machine {} failed: {}", current.id(), error);
            return commit(entry, current.toBuilder().state(MachineState.FAILED).lastError(error).build(), List.of())
                    .thenApply(done -> true);
        }));
    }

    /**
     * Removes every Speculative machine whose id is not in {@code backed} (no offering renders it
     * any more), as one group of writes: a shrunk offering must not cost a commit per slot.
     *
     * @return how many were removed
     */
    public int retireUnbacked(Set<String> backed) throws StoreFailure {
        List<CompletableFuture<Boolean>> retirements = new ArrayList<>();
        for (MachineEntry entry : machines.values()) {
            Machine m = entry.snapshot();
            if (m.state() == MachineState.SPECULATIVE && !backed.contains(m.id())) {
                retirements.add(entry.changes.then(() -> retire(entry)));
            }
        }
        int retired = 0;
        for (CompletableFuture<Boolean> retirement : retirements) {
            retired += await(retirement) ? 1 : 0;
        }
        return retired;
    }

    private CompletableFuture<Boolean> retire(MachineEntry entry) {
        Machine m = entry.snapshot();
        if (m.state() != MachineState.SPECULATIVE || !isVisible(entry)) {
            return CompletableFuture.completedFuture(false);
        }
        return durable(store.write(StoreWrite.deletion(m.id(), () -> index.remove(entry)))).thenApply(done -> {
            machines.remove(m.id(), entry);
            observer.machineChanged(m, null);
            return true;
        });
    }

    /** Every machine, for reconciling offerings and the substrate. */
    public List<Machine> snapshot() {
        List<Machine> all = new ArrayList<>(machines.size());
        for (MachineEntry entry : machines.values()) {
            all.add(entry.snapshot());
        }
        return all;
    }

    // ---- inventory -------------------------------------------------------------------------

    /** Adds machines the engine does not know yet (seeding, reconcile); known ids are skipped. */
    public int addMachines(Collection<Machine> toAdd) throws StoreFailure {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (Machine m : toAdd) {
            if (machines.containsKey(m.id())) {
                continue;
            }
            MachineEntry entry = new MachineEntry(m);
            if (machines.putIfAbsent(m.id(), entry) == null) {
                // queued together so a large seed is group-committed, not one fsync per machine
                writes.add(entry.changes.then(() -> commit(entry, m, List.of())));
            }
        }
        awaitAll(writes);
        return writes.size();
    }

    /**
     * Replaces substrate facts (price, resources, allocatable, labels) of a known machine, bumping
     * the revision only when something really changed.
     */
    public boolean refreshFacts(String id, UnaryOperator<Machine> refresh) throws StoreFailure {
        MachineEntry entry = machines.get(id);
        if (entry == null) {
            return false;
        }
        return await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            Machine next = refresh.apply(current);
            if (next.equals(current) || !isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            return commit(entry, next, List.of()).thenApply(done -> true);
        }));
    }

    public Optional<Machine> get(String id) {
        MachineEntry entry = machines.get(id);
        // an entry not yet durable is not yet visible
        return entry == null || entry.revision() == 0 ? Optional.empty() : Optional.of(entry.snapshot());
    }

    public int size() {
        return machines.size();
    }

    public long revision() {
        return index.current();
    }

    /** A cursor for "now": a delta from it holds only what changes afterwards. */
    public byte[] currentCursor() {
        return cursors.encode(index.current());
    }

    // ---- List --------------------------------------------------------------------------------

    public ListResult list(ListQuery query) {
        long upTo = index.current();
        OptionalLong since = query.sinceRevision() == null
                ? OptionalLong.empty()
                : cursors.decode(query.sinceRevision());
        NavigableMap<Long, MachineEntry> changed = index.changedBetween(since.orElse(0), upTo);
        List<Machine> page = new ArrayList<>();
        long lastReturned = 0;
        boolean more = false;
        for (Map.Entry<Long, MachineEntry> e : changed.entrySet()) {
            Machine m = e.getValue().snapshot();
            if (!query.states().isEmpty() && !query.states().contains(m.state())) {
                continue;
            }
            if (query.maxResults() > 0 && page.size() == query.maxResults()) {
                more = true;
                break;
            }
            page.add(m);
            lastReturned = e.getKey();
        }
        // a capped page continues right after its last machine; otherwise the caller is up to date
        long reached = more ? lastReturned : upTo;
        return new ListResult(page, cursors.encode(reached));
    }

    // ---- mutations -----------------------------------------------------------------------------

    /**
     * Runs a lifecycle call. The result completes, usually on another thread, once the answer is
     * known and anything it changed is durable; it fails with a {@link CompletionException} around
     * a {@link RejectedException} when the call is refused.
     */
    public CompletableFuture<Accepted> mutateAsync(MutationRequest request) {
        try {
            RequestLimits.check(request);
            MachineEntry entry = machines.get(request.machineId());
            if (entry == null) {
                fenceUnknown(request);
                throw notFound(request);
            }
            return entry.changes.then(() -> decide(entry, request));
        } catch (RejectedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** {@link #mutateAsync}, waiting for the answer. */
    public Accepted mutate(MutationRequest request) throws RejectedException {
        try {
            return mutateAsync(request).join();
        } catch (CompletionException e) {
            throw Failures.rejection(e).orElseThrow(() -> e);
        }
    }

    private static RejectedException notFound(MutationRequest request) {
        return new RejectedException(RejectionReason.NOT_FOUND, "machine not found: " + request.machineId());
    }

    /** The rule order, from the fence on, for a machine the engine holds. */
    private CompletableFuture<Accepted> decide(MachineEntry entry, MutationRequest request) throws RejectedException {
        if (!isVisible(entry)) {
            throw notFound(request);
        }
        List<MarkWrite> marks = fence(entry, request);
        Machine current = entry.snapshot();
        TransitionKind kind = request.kind();
        LastOperation last = entry.lastOperation();
        if (last != null && last.kind() == kind
                && (current.state() == kind.transitional() || current.state() == kind.target())) {
            return persistMarks(marks).thenApply(done -> {
                if (kind == TransitionKind.CONFIGURE && !last.clusterId().equals(request.clusterId())) {
                    throw new CompletionException(new RejectedException(RejectionReason.CONFLICT, "machine "
                            + current.id() + " is already " + current.state().name().toLowerCase()
                            + " for another cluster"));
                }
                return new Accepted(last.operationId(), current);
            });
        }
        if (current.state() != kind.source()) {
            RejectedException wrongState = new RejectedException(RejectionReason.CONFLICT, "cannot " + kind.label()
                    + " a machine in state " + current.state() + (current.state() == MachineState.FAILED
                            ? " (last_error: " + current.lastError() + ")" : ""));
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
        return durable(store.write(StoreWrite.marksOnly(marks))).handle((ok, error) -> {
            if (error != null) {
                throw unavailable(error);
            }
            return null;
        });
    }

    /** A store failure as the refusal a caller gets. */
    private static CompletionException unavailable(Throwable storeFailure) {
        return new CompletionException(new RejectedException(RejectionReason.UNAVAILABLE,
                Failures.unwrap(storeFailure).getMessage()));
    }

    /** Checks and advances the mark in memory; returns the write that makes the advance durable. */
    private List<MarkWrite> fence(MachineEntry entry, MutationRequest request) throws RejectedException {
        FenceToken token = request.token();
        if (token.bypassesFencing()) {
            return List.of();
        }
        FenceMark mark = entry.marks().get(token.shardId());
        if (mark != null && !token.isNewerThan(mark)) {
            observer.fenced(request.kind());
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
        synchronized (unknownFences) {
            FenceMark mark = unknownFences.get(token.shardId(), request.machineId());
            if (mark != null && !token.isNewerThan(mark)) {
                observer.fenced(request.kind());
                throw fenced(token, request.machineId(), mark);
            }
            unknownFences.put(token.shardId(), request.machineId(), token.asMark());
        }
    }

    private static RejectedException fenced(FenceToken token, String machineId, FenceMark mark) {
        return new RejectedException(RejectionReason.FENCED, "request fenced (stale shard token): shard \""
                + token.shardId() + "\" sent (epoch=" + token.epoch() + " seq=" + token.sequence()
                + ") for machine \"" + machineId + "\"; high-water mark is (epoch=" + mark.epoch()
                + " seq=" + mark.sequence() + ")");
    }

    private CompletableFuture<Accepted> accept(MachineEntry entry, Machine current, MutationRequest request,
            List<MarkWrite> marks) {
        TransitionKind kind = request.kind();
        String operationId = "op-" + lastOperationNumber.incrementAndGet();
        Machine.Builder next = current.toBuilder().state(kind.transitional()).lastError("");
        if (kind == TransitionKind.CONFIGURE) {
            // visible for the whole CONFIGURING span, verbatim
            next.cluster(request.clusterId()).shardMetadata(request.shardMetadata());
        }
        Machine accepted = next.build();
        LastOperation previous = entry.lastOperation();
        entry.lastOperation(new LastOperation(kind, operationId, request.clusterId()));
        return commit(entry, accepted, marks).handle((done, error) -> {
            if (error != null) {
                entry.lastOperation(previous);
                throw unavailable(error);
            }
            // only a durable accept starts work, so a restart never forgets a running transition
            start(entry, accepted, operationId, request);
            return new Accepted(operationId, accepted);
        });
    }

    /**
     * Runs the transition's backend work on a worker, within the kind's timeout, and applies its
     * outcome. Everything, the timeout's bookkeeping included, happens on the worker: the thread
     * that completes durable writes only hands the work over.
     */
    private void start(MachineEntry entry, Machine atAccept, String operationId, MutationRequest request) {
        TransitionKind kind = request.kind();
        Duration timeout = timeouts.of(kind);
        Instant acceptedAt = Instant.now();
        TransitionContext context = new TransitionContext(atAccept.id(), operationId, acceptedAt.plus(timeout));
        byte[] blob = request.bootstrapBlob();
        long grace = request.gracePeriodSeconds();
        try {
            workers.execute(() -> {
                UnaryOperator<Machine> postEffect;
                try {
                    postEffect = Failsafe.with(Timeout.<UnaryOperator<Machine>>builder(timeout).withInterrupt().build())
                            .get(() -> work.run(kind, atAccept, blob, grace, context));
                } catch (RuntimeException | Error e) {
                    context.cancel();
                    EngineObserver.Outcome outcome = isTimeout(e) ? EngineObserver.Outcome.TIMEOUT : EngineObserver.Outcome.ERROR;
                    complete(entry, kind, operationId, acceptedAt, outcome, null, failureMessage(kind, timeout, e));
                    return;
                }
                context.cancel();
                complete(entry, kind, operationId, acceptedAt, EngineObserver.Outcome.SUCCESS, postEffect, null);
            });
        } catch (RejectedExecutionException stopping) {
            // the provider is stopping: the machine stays transitional and a restart fails it as interrupted
            log.warn("{} of machine {} ({}) not started: the provider is stopping", kind.label(), atAccept.id(), operationId);
        }
    }

    private static boolean isTimeout(Throwable error) {
        return Failures.unwrap(error) instanceof TimeoutExceededException;
    }

    private static String failureMessage(TransitionKind kind, Duration timeout, Throwable error) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof TimeoutExceededException) {
            return kind.label() + " transition timed out after " + GoDuration.format(timeout);
        }
        if (cause instanceof dev.bigfleet.proxmox.spi.BackendException) {
            String message = cause.getMessage();
            return message == null || message.isBlank() ? kind.label() + " failed" : message;
        }
        return kind.label() + " failed: internal error: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** Applies a transition's outcome as the machine's next change; the worker does not wait for it. */
    private void complete(MachineEntry entry, TransitionKind kind, String operationId, Instant acceptedAt,
            EngineObserver.Outcome outcome, UnaryOperator<Machine> postEffect, String failure) {
        entry.changes.then(() -> {
            Machine current = entry.snapshot();
            LastOperation last = entry.lastOperation();
            if (current.state() != kind.transitional() || last == null || !last.operationId().equals(operationId)) {
                log.info("discarding late {} result for machine {} ({}): it is {} now",
                        kind.label(), current.id(), operationId, current.state());
                return CompletableFuture.completedFuture(null);
            }
            Machine next;
            if (failure == null) {
                next = postEffect.apply(current);
            } else {
                log.warn("transition failed: machine={} kind={} operation={} err={}",
                        current.id(), kind.label(), operationId, failure);
                next = current.toBuilder().state(MachineState.FAILED).lastError(failure).build();
            }
            return commit(entry, next, List.of()).thenRun(() ->
                    observer.transitionFinished(kind, outcome, Duration.between(acceptedAt, Instant.now())));
        }).whenComplete((done, error) -> {
            if (error == null) {
                return;
            }
            Throwable cause = Failures.unwrap(error);
            if (cause instanceof StoreFailure) {
                // the machine stays in its transitional state; a restart turns it FAILED as interrupted
                log.error("recording the {} result of machine {} failed: {}", kind.label(), entry.snapshot().id(),
                        cause.getMessage());
            } else {
                log.error("applying the {} result of machine {} failed", kind.label(), entry.snapshot().id(), cause);
            }
        });
    }
}
