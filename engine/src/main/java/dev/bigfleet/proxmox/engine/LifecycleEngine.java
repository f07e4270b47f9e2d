package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.function.UnaryOperator;

/**
 * The authoritative inventory and the rules of the wire contract, as one entry point over its parts:
 * {@link Admission} (the rule order and fencing), {@link TransitionRunner} (the backend work of an
 * accepted transition), {@link RestartRecovery}, {@link FailureRecovery} (cleaning up FAILED
 * machines), {@link InventoryMaintenance} (seed and reconcile) and {@link InventoryReads}. They share one {@link MachineTable}; each machine's changes run one at
 * a time in its {@link ChangeSequence}, and nothing is acknowledged or shown before it is durable.
 */
@Singleton
public final class LifecycleEngine {
    /** Names the executor that runs transitions' backend work. */
    public static final String TRANSITION_WORKERS = "transition-workers";

    private final Admission admission;
    private final TransitionRunner runner;
    private final RestartRecovery recovery;
    private final FailureRecovery failures;
    private final InventoryMaintenance maintenance;
    private final InventoryReads reads;
    private final FollowedChanges followed;
    private final MachineTable table;

    @Inject
    public LifecycleEngine(
            TransitionWork work,
            TransitionTimeouts timeouts,
            @Named(TRANSITION_WORKERS) ExecutorService workers,
            StateStore store,
            EngineObserver observer,
            RecoveryPolicy recoveryPolicy,
            FenceFloor fenceFloor,
            OfferedSlots offeredSlots) {
        this.table = new MachineTable(store, observer);
        this.runner = new TransitionRunner(table, work, timeouts, workers);
        this.admission = new Admission(table, runner, fenceFloor);
        this.recovery = new RestartRecovery(table);
        this.failures = new FailureRecovery(
                table, new FailureCleanupWork(work.backend()), recoveryPolicy, timeouts, workers, offeredSlots);
        this.maintenance = new InventoryMaintenance(table);
        this.reads = new InventoryReads(table);
        this.followed = new FollowedChanges(table);
    }

    /** An engine with no fence floor, for which every slot is offered. */
    public LifecycleEngine(
            TransitionWork work,
            TransitionTimeouts timeouts,
            ExecutorService workers,
            StateStore store,
            EngineObserver observer,
            RecoveryPolicy recoveryPolicy) {
        this(work, timeouts, workers, store, observer, recoveryPolicy, FenceFloor.NONE, OfferedSlots.ANY);
    }

    /** An engine whose FAILED machines are cleaned up after the default retention. */
    public LifecycleEngine(
            TransitionWork work,
            TransitionTimeouts timeouts,
            ExecutorService workers,
            StateStore store,
            EngineObserver observer) {
        this(work, timeouts, workers, store, observer, RecoveryPolicy.defaults());
    }

    // ---- mutations

    /**
     * Runs a lifecycle call. The result completes, usually on another thread, once the answer is
     * known and anything it changed is durable; it fails with a {@link CompletionException} around a
     * {@link RejectedException} when the call is refused.
     */
    public CompletableFuture<Accepted> mutateAsync(MutationRequest request) {
        return admission.mutateAsync(request);
    }

    /** {@link #mutateAsync}, waiting for the answer. */
    public Accepted mutate(MutationRequest request) throws RejectedException {
        try {
            return mutateAsync(request).join();
        } catch (CompletionException e) {
            throw Failures.rejection(e).orElseThrow(() -> e);
        }
    }

    // ---- restart

    /** Puts back one machine a durable store held, with its revision, marks and last operation. */
    public void restore(StoredMachine stored) {
        recovery.restore(stored);
    }

    /** After every machine is back: numbering continues after the stored counters. */
    public void restored(StoredCounters counters) {
        recovery.restored(counters);
    }

    /**
     * Drives on every Create, Delete and Drain a restart left in flight, under its operation id and
     * deadline, and fails every Configure (its blob is never kept).
     */
    public RestartOutcome resumeInterruptedTransitions() throws StoreFailure {
        return resumeInterruptedTransitions(Interruption.RESTART);
    }

    /** As {@link #resumeInterruptedTransitions()}, with {@code last_error} naming what interrupted them. */
    public RestartOutcome resumeInterruptedTransitions(Interruption interruption) throws StoreFailure {
        return recovery.resumeInterruptedTransitions(runner, interruption);
    }

    // ---- standby and failover

    /**
     * Applies the changes a standby follows from a shared store to this engine's view (it writes
     * nothing); taking over is then {@link #restored} and {@link #resumeInterruptedTransitions}, as
     * after a restart.
     */
    public StoreFollower follower() {
        return followed;
    }

    /**
     * Cancels the backend work of every running transition, because this replica was deposed; its
     * successor drives them on. Returns how many were running.
     */
    public int abandonRunningTransitions() {
        return runner.abandonRunning();
    }

    /**
     * Removes Speculative machines whose slot is not in {@code offered}, or whose slot a newer machine
     * holds; returns how many.
     */
    public int retireUnbacked(Set<String> offered) throws StoreFailure {
        return recovery.retireUnbacked(offered);
    }

    // ---- FAILED machines

    /** Starts the cleanup of every FAILED machine whose retention has ended and whose turn it is. */
    public int cleanUpFailedMachines() {
        return failures.cleanUpDue(Instant.now());
    }

    /** FAILED machines whose VM may be a live node and whose drain keeps failing. */
    public int failedNeedingAttention() {
        return failures.needingAttention();
    }

    /** Why a FAILED machine failed and where its cleanup stands. */
    public Optional<FailureRecord> failure(String id) {
        MachineEntry entry = table.entry(id);
        return entry == null || entry.snapshot().state() != MachineState.FAILED
                ? Optional.empty()
                : Optional.ofNullable(entry.failure());
    }

    // ---- seed and reconcile

    /** Adds machines the engine does not know yet; known ids are skipped. Returns how many were added. */
    public int addMachines(Collection<Machine> toAdd) throws StoreFailure {
        return maintenance.addMachines(toAdd);
    }

    /** Replaces substrate facts of a known machine; returns whether anything changed. */
    public boolean refreshFacts(String id, UnaryOperator<Machine> refresh) throws StoreFailure {
        return maintenance.refreshFacts(id, refresh);
    }

    /** Fails a stable machine the substrate lost, unless it changed since {@code seen}; returns whether. */
    public boolean failIfUnchanged(Machine seen, String error) throws StoreFailure {
        return maintenance.failIfUnchanged(seen, error);
    }

    /** Clears the host of a FAILED machine whose VM is gone, unless it changed since {@code seen}. */
    public boolean releaseLostHost(Machine seen) throws StoreFailure {
        return maintenance.releaseLostHost(seen);
    }

    /** Replaces a machine with what the cluster says it is, unless it changed since {@code seen}. */
    public boolean rebuild(Machine seen, Machine next) throws StoreFailure {
        return maintenance.rebuild(seen, next);
    }

    /** Marks a FAILED machine's failure as bound (its cleanup drains first), unless it changed since {@code seen}. */
    public boolean markFailureBound(Machine seen) throws StoreFailure {
        return maintenance.markFailureBound(seen);
    }

    // ---- reads

    public Optional<Machine> get(String id) {
        return reads.get(id);
    }

    /** The id of every machine held (a live view): which slots are held, and by which machine. */
    public Set<String> ids() {
        return table.ids();
    }

    /** Every machine, for reconciling offerings and the substrate. */
    public List<Machine> snapshot() {
        return reads.snapshot();
    }

    /**
     * A machine's recent operations, newest first (see {@link StateStore#operations}): read from the
     * store on each call, so only what is durable shows.
     */
    public List<OperationRecord> operations(String id) throws StoreException {
        return table.store().operations(id);
    }

    public ListResult list(ListQuery query) {
        return reads.list(query);
    }

    public int size() {
        return table.size();
    }

    public long revision() {
        return reads.revision();
    }

    /** A cursor for "now": a delta from it holds only what changes afterwards. */
    public byte[] currentCursor() {
        return reads.currentCursor();
    }
}
