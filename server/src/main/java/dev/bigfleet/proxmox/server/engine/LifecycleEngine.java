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
    private final RevisionIndex index = new RevisionIndex(0);
    private final AtomicLong lastOperationNumber = new AtomicLong();
    private final TransitionWork work;
    private final TransitionTimeouts timeouts;
    private final ExecutorService workers;
    private final CursorCodec cursors;
    private final EngineObserver observer;

    public LifecycleEngine(TransitionWork work, TransitionTimeouts timeouts, ExecutorService workers,
            CursorCodec cursors, EngineObserver observer) {
        this.work = work;
        this.timeouts = timeouts;
        this.workers = workers;
        this.cursors = cursors;
        this.observer = observer;
    }

    /** Every change to a machine goes through here: a new revision, and the observer hears of it. */
    private void publish(MachineEntry entry, Machine next) {
        Machine before = entry.revision() == 0 ? null : entry.snapshot();
        index.stamp(entry, next);
        observer.machineChanged(before, next);
    }

    // ---- inventory -------------------------------------------------------------------------

    /** Adds machines the engine does not know yet (seeding, reconcile); known ids are skipped. */
    public int addMachines(Collection<Machine> toAdd) {
        int added = 0;
        for (Machine m : toAdd) {
            MachineEntry entry = new MachineEntry(m);
            if (machines.putIfAbsent(m.id(), entry) == null) {
                publish(entry, m);
                added++;
            }
        }
        return added;
    }

    /**
     * Replaces substrate facts (price, resources, allocatable, labels) of a known machine, bumping
     * the revision only when something really changed.
     */
    public boolean refreshFacts(String id, UnaryOperator<Machine> refresh) {
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
            publish(entry, next);
            return true;
        } finally {
            entry.lock.unlock();
        }
    }

    public Optional<Machine> get(String id) {
        MachineEntry entry = machines.get(id);
        return entry == null ? Optional.empty() : Optional.of(entry.snapshot());
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
            fence(entry, request);
            Machine current = entry.snapshot();
            TransitionKind kind = request.kind();
            LastOperation last = entry.lastOperation();
            if (last != null && last.kind() == kind
                    && (current.state() == kind.transitional() || current.state() == kind.target())) {
                if (kind == TransitionKind.CONFIGURE && !last.clusterId().equals(request.clusterId())) {
                    throw new RejectedException(RejectionReason.CONFLICT, "machine " + current.id()
                            + " is already " + current.state().name().toLowerCase() + " for another cluster");
                }
                return new Accepted(last.operationId(), current);
            }
            if (current.state() != kind.source()) {
                throw new RejectedException(RejectionReason.CONFLICT, "cannot " + kind.label()
                        + " a machine in state " + current.state() + (current.state() == MachineState.FAILED
                                ? " (last_error: " + current.lastError() + ")" : ""));
            }
            return accept(entry, current, request);
        } finally {
            entry.lock.unlock();
        }
    }

    private void fence(MachineEntry entry, MutationRequest request) throws RejectedException {
        FenceToken token = request.token();
        if (token.bypassesFencing()) {
            return;
        }
        FenceMark mark = entry.marks().get(token.shardId());
        if (mark != null && !token.isNewerThan(mark)) {
            observer.fenced(request.kind());
            throw fenced(token, request.machineId(), mark);
        }
        entry.marks().put(token.shardId(), token.asMark());
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

    private Accepted accept(MachineEntry entry, Machine current, MutationRequest request) {
        TransitionKind kind = request.kind();
        String operationId = "op-" + lastOperationNumber.incrementAndGet();
        Machine.Builder next = current.toBuilder().state(kind.transitional()).lastError("");
        if (kind == TransitionKind.CONFIGURE) {
            // visible for the whole CONFIGURING span, verbatim
            next.cluster(request.clusterId()).shardMetadata(request.shardMetadata());
        }
        Machine accepted = next.build();
        entry.lastOperation(new LastOperation(kind, operationId, request.clusterId()));
        publish(entry, accepted);
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
                publish(entry, postEffect.apply(current));
            } else {
                log.warn("transition failed: machine={} kind={} operation={} err={}",
                        current.id(), kind.label(), operationId, failure);
                publish(entry, current.toBuilder().state(MachineState.FAILED).lastError(failure).build());
            }
            observer.transitionFinished(kind, outcome, Duration.between(acceptedAt, Instant.now()));
        } catch (RuntimeException e) {
            log.error("applying the {} result of machine {} failed", kind.label(), entry.snapshot().id(), e);
        } finally {
            entry.lock.unlock();
        }
    }
}
