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
import java.util.Set;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authoritative inventory and the rules of the wire contract. Each mutation runs the rule
 * order (validate, fence, not found, idempotent retry, position, accept) under its machine's own
 * lock; the substrate work then runs on {@code workers}, bounded by the kind's timeout, and its
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

    /**
     * Every change to a machine goes through here: a new revision, one store write (with any fence
     * marks that advanced), and the observer hears of it once it is durable and visible.
     */
    private void commit(MachineEntry entry, Machine next, List<MarkWrite> marks) throws StoreFailure {
        await(queue(entry, next, marks));
    }

    /** A change on its way to the store. */
    private record Queued(CompletableFuture<Void> durable, Machine before, Machine next) {}

    private Queued queue(MachineEntry entry, Machine next, List<MarkWrite> marks) {
        Machine before = entry.revision() == 0 ? null : entry.snapshot();
        LastOperation last = entry.lastOperation();
        return new Queued(index.stamp(entry, next, revision -> new StoreWrite(next, last, marks, null, revision,
                lastOperationNumber.get(), null)), before, next);
    }

    /**
     * Waits until the change is durable, then tells the observer, on this thread: the store's
     * single writer is the bottleneck of every commit and must not run metrics code.
     */
    private void await(Queued queued) throws StoreFailure {
        await(queued.durable());
        observer.machineChanged(queued.before(), queued.next());
    }

    private static void await(CompletableFuture<Void> durable) throws StoreFailure {
        try {
            durable.join();
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new StoreFailure("state store write failed: " + cause.getMessage(), cause);
        }
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
        List<Queued> writes = new ArrayList<>();
        for (MachineEntry entry : machines.values()) {
            Machine m = entry.snapshot();
            if (m.state().isTransitional()) {
                TransitionKind kind = TransitionKind.forTransitional(m.state());
                LastOperation last = entry.lastOperation();
                String error = kind.label() + " transition" + (last == null ? "" : " " + last.operationId())
                        + " was interrupted by a provider restart";
                writes.add(queue(entry, m.toBuilder().state(MachineState.FAILED).lastError(error).build(), List.of()));
            }
        }
        for (Queued w : writes) {
            await(w);
        }
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
        entry.lock.lock();
        try {
            Machine current = entry.snapshot();
            if (!current.equals(seen)) {
                return false;
            }
            log.warn("machine {} failed: {}", current.id(), error);
            commit(entry, current.toBuilder().state(MachineState.FAILED).lastError(error).build(), List.of());
            return true;
        } finally {
            entry.lock.unlock();
        }
    }

    /**
     * Removes every Speculative machine whose id is not in {@code backed} (no offering renders it
     * any more), as one group of writes: a shrunk offering must not cost a commit per slot.
     *
     * @return how many were removed
     */
    public int retireUnbacked(Set<String> backed) throws StoreFailure {
        List<MachineEntry> locked = new ArrayList<>();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        try {
            for (MachineEntry entry : machines.values()) {
                Machine m = entry.snapshot();
                if (m.state() != MachineState.SPECULATIVE || backed.contains(m.id())) {
                    continue;
                }
                entry.lock.lock();
                locked.add(entry);
                if (entry.snapshot().state() == MachineState.SPECULATIVE) {
                    writes.add(store.write(StoreWrite.deletion(m.id(), () -> index.remove(entry))));
                } else {
                    writes.add(null);
                }
            }
            int retired = 0;
            for (int i = 0; i < locked.size(); i++) {
                if (writes.get(i) == null) {
                    continue;
                }
                await(writes.get(i));
                MachineEntry entry = locked.get(i);
                machines.remove(entry.snapshot().id(), entry);
                observer.machineChanged(entry.snapshot(), null);
                retired++;
            }
            return retired;
        } finally {
            locked.forEach(entry -> entry.lock.unlock());
        }
    }

    /** Ids of every machine, for reconciling offerings at startup. */
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
        List<Queued> writes = new ArrayList<>();
        for (Machine m : toAdd) {
            if (machines.containsKey(m.id())) {
                continue;
            }
            MachineEntry entry = new MachineEntry(m);
            if (machines.putIfAbsent(m.id(), entry) == null) {
                // queued together so a large seed is group-committed, not one fsync per machine
                writes.add(queue(entry, m, List.of()));
            }
        }
        for (Queued w : writes) {
            await(w);
        }
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
        entry.lock.lock();
        try {
            Machine current = entry.snapshot();
            Machine next = refresh.apply(current);
            if (next.equals(current)) {
                return false;
            }
            commit(entry, next, List.of());
            return true;
        } finally {
            entry.lock.unlock();
        }
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

    public Accepted mutate(MutationRequest request) throws RejectedException {
        RequestLimits.check(request);
        MachineEntry entry = machines.get(request.machineId());
        if (entry == null) {
            fenceUnknown(request);
            throw new RejectedException(RejectionReason.NOT_FOUND, "machine not found: " + request.machineId());
        }
        entry.lock.lock();
        try {
            List<MarkWrite> marks = fence(entry, request);
            Machine current = entry.snapshot();
            TransitionKind kind = request.kind();
            LastOperation last = entry.lastOperation();
            if (last != null && last.kind() == kind
                    && (current.state() == kind.transitional() || current.state() == kind.target())) {
                persistMarks(marks);
                if (kind == TransitionKind.CONFIGURE && !last.clusterId().equals(request.clusterId())) {
                    throw new RejectedException(RejectionReason.CONFLICT, "machine " + current.id()
                            + " is already " + current.state().name().toLowerCase() + " for another cluster");
                }
                return new Accepted(last.operationId(), current);
            }
            if (current.state() != kind.source()) {
                persistMarks(marks);
                throw new RejectedException(RejectionReason.CONFLICT, "cannot " + kind.label()
                        + " a machine in state " + current.state() + (current.state() == MachineState.FAILED
                                ? " (last_error: " + current.lastError() + ")" : ""));
            }
            return accept(entry, current, request, marks);
        } finally {
            entry.lock.unlock();
        }
    }

    /** A mark that advanced must survive a restart even when the call then fails. */
    private void persistMarks(List<MarkWrite> marks) throws RejectedException {
        if (marks.isEmpty()) {
            return;
        }
        try {
            await(store.write(StoreWrite.marksOnly(marks)));
        } catch (StoreFailure e) {
            throw new RejectedException(RejectionReason.UNAVAILABLE, e.getMessage());
        }
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

    private Accepted accept(MachineEntry entry, Machine current, MutationRequest request, List<MarkWrite> marks)
            throws RejectedException {
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
        try {
            commit(entry, accepted, marks);
        } catch (StoreFailure e) {
            entry.lastOperation(previous);
            throw new RejectedException(RejectionReason.UNAVAILABLE, e.getMessage());
        }
        // only a durable accept starts work, so a restart never forgets a running transition
        start(entry, accepted, operationId, request);
        return new Accepted(operationId, accepted);
    }

    private void start(MachineEntry entry, Machine atAccept, String operationId, MutationRequest request) {
        TransitionKind kind = request.kind();
        Duration timeout = timeouts.of(kind);
        Instant acceptedAt = Instant.now();
        TransitionContext context = new TransitionContext(atAccept.id(), operationId, Instant.now().plus(timeout));
        byte[] blob = request.bootstrapBlob();
        long grace = request.gracePeriodSeconds();
        Failsafe.with(Timeout.<UnaryOperator<Machine>>builder(timeout).withInterrupt().build())
                .with(workers)
                .getAsync(() -> work.run(kind, atAccept, blob, grace, context))
                .whenComplete((postEffect, error) -> {
                    context.cancel();
                    if (error == null) {
                        complete(entry, kind, operationId, acceptedAt, EngineObserver.Outcome.SUCCESS, postEffect, null);
                    } else {
                        EngineObserver.Outcome outcome = isTimeout(error)
                                ? EngineObserver.Outcome.TIMEOUT : EngineObserver.Outcome.ERROR;
                        complete(entry, kind, operationId, acceptedAt, outcome, null, failureMessage(kind, timeout, error));
                    }
                });
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static boolean isTimeout(Throwable error) {
        return unwrap(error) instanceof TimeoutExceededException;
    }

    private static String failureMessage(TransitionKind kind, Duration timeout, Throwable error) {
        Throwable cause = unwrap(error);
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

    private void complete(MachineEntry entry, TransitionKind kind, String operationId, Instant acceptedAt,
            EngineObserver.Outcome outcome, UnaryOperator<Machine> postEffect, String failure) {
        entry.lock.lock();
        try {
            Machine current = entry.snapshot();
            LastOperation last = entry.lastOperation();
            if (current.state() != kind.transitional() || last == null || !last.operationId().equals(operationId)) {
                log.info("discarding late {} result for machine {} ({}): it is {} now",
                        kind.label(), current.id(), operationId, current.state());
                return;
            }
            if (failure == null) {
                commit(entry, postEffect.apply(current), List.of());
            } else {
                log.warn("transition failed: machine={} kind={} operation={} err={}",
                        current.id(), kind.label(), operationId, failure);
                commit(entry, current.toBuilder().state(MachineState.FAILED).lastError(failure).build(), List.of());
            }
            observer.transitionFinished(kind, outcome, Duration.between(acceptedAt, Instant.now()));
        } catch (StoreFailure e) {
            // the machine stays in its transitional state; a restart turns it FAILED as interrupted
            log.error("recording the {} result of machine {} failed: {}", kind.label(), entry.snapshot().id(),
                    e.getMessage());
        } catch (RuntimeException e) {
            log.error("applying the {} result of machine {} failed", kind.label(), entry.snapshot().id(), e);
        } finally {
            entry.lock.unlock();
        }
    }
}
