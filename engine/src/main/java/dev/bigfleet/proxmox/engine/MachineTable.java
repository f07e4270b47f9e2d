package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The inventory every part of the engine shares: the machines by id, the revision index, the store
 * and the operation counter, and the one way a machine changes ({@link #commit}): a new revision and
 * a durable store write, visible to readers only once durable.
 */
final class MachineTable {
    private final Map<String, MachineEntry> machines = new ConcurrentHashMap<>();
    private final RevisionIndex index;
    private final StateStore store;
    private final AtomicLong lastOperationNumber = new AtomicLong();
    private final EngineObserver observer;

    MachineTable(StateStore store, EngineObserver observer) {
        this.store = store;
        this.index = new RevisionIndex(store);
        this.observer = observer;
    }

    StateStore store() {
        return store;
    }

    RevisionIndex index() {
        return index;
    }

    EngineObserver observer() {
        return observer;
    }

    MachineEntry entry(String id) {
        return machines.get(id);
    }

    Collection<MachineEntry> entries() {
        return machines.values();
    }

    /** The ids of every machine held, as a live view. */
    Set<String> ids() {
        return Collections.unmodifiableSet(machines.keySet());
    }

    int size() {
        return machines.size();
    }

    /** Adds an entry unless the id is taken; returns whether it was added. */
    boolean add(MachineEntry entry) {
        return machines.putIfAbsent(entry.snapshot().id(), entry) == null;
    }

    /** Puts an entry loaded from the store, replacing nothing the engine made. */
    void put(MachineEntry entry) {
        machines.put(entry.snapshot().id(), entry);
    }

    void remove(MachineEntry entry) {
        machines.remove(entry.snapshot().id(), entry);
    }

    /** Mints the next operation id; never reused, also not after a restart. */
    String nextOperationId() {
        return "op-" + lastOperationNumber.incrementAndGet();
    }

    long lastOperationNumber() {
        return lastOperationNumber.get();
    }

    /** Numbering continues after {@code number}; it never goes back (a standby follows it upwards). */
    void resumeOperationsAfter(long number) {
        lastOperationNumber.accumulateAndGet(number, Math::max);
    }

    /** Whether {@code entry} is a machine callers can see: known, durable, not retired. */
    boolean isVisible(MachineEntry entry) {
        return entry.revision() != 0 && machines.get(entry.snapshot().id()) == entry;
    }

    /**
     * Every change to a machine goes through here: a new revision and one store write (with any fence
     * marks that advanced). The result completes once the change is durable and visible, after the
     * observer has heard of it; it fails with a {@link StoreFailure} if the write did.
     */
    CompletableFuture<Void> commit(MachineEntry entry, Machine next, List<MarkWrite> marks) {
        return commit(entry, next, marks, null);
    }

    /** {@link #commit(MachineEntry, Machine, List)} of a change that starts or ends {@code operation}. */
    CompletableFuture<Void> commit(MachineEntry entry, Machine next, List<MarkWrite> marks, OperationRecord operation) {
        Machine before = entry.revision() == 0 ? null : entry.snapshot();
        LastOperation last = entry.lastOperation();
        FailureRecord failure = entry.failure();
        return durable(index.stamp(
                        entry,
                        next,
                        revision -> new StoreWrite(
                                next,
                                last,
                                failure,
                                operation,
                                marks,
                                null,
                                revision,
                                lastOperationNumber.get(),
                                null)))
                .thenRun(() -> observer.machineChanged(before, next));
    }

    /**
     * Takes {@code old} out of the inventory and puts {@code successor}, a machine the table does not
     * hold yet, in its place with one durable write: readers see either the old machine or the new one,
     * never both or neither, and a crash keeps one of them. Runs in {@code old}'s change sequence; the
     * result is false, and nothing changes, when the successor's id is taken.
     */
    CompletableFuture<Boolean> replace(MachineEntry old, Machine successor) {
        MachineEntry next = new MachineEntry(successor);
        if (!add(next)) {
            return CompletableFuture.completedFuture(false);
        }
        Machine before = old.snapshot();
        return next.changes
                .then(() -> durable(index.stampReplacing(
                        old,
                        next,
                        successor,
                        revision -> new StoreWrite(
                                successor,
                                null,
                                null,
                                null,
                                List.of(),
                                before.id(),
                                revision,
                                lastOperationNumber.get(),
                                null),
                        () -> machines.remove(before.id(), old))))
                .handle((ok, error) -> {
                    if (error != null) {
                        machines.remove(successor.id(), next);
                        throw error instanceof CompletionException c ? c : new CompletionException(error);
                    }
                    observer.machineChanged(before, null);
                    observer.machineChanged(null, successor);
                    return true;
                });
    }

    /** Takes {@code entry} out of the inventory with one durable write. Runs in its change sequence. */
    CompletableFuture<Void> retire(MachineEntry entry) {
        Machine m = entry.snapshot();
        return durable(store.write(StoreWrite.deletion(m.id(), () -> index.remove(entry))))
                .thenRun(() -> {
                    remove(entry);
                    observer.machineChanged(m, null);
                });
    }

    /** A store write's future, failing with a {@link StoreFailure} when the write did. */
    static CompletableFuture<Void> durable(CompletableFuture<Void> write) {
        return write.handle((ok, error) -> {
            if (error != null) {
                throw new CompletionException(storeFailure(error));
            }
            return null;
        });
    }

    static StoreFailure storeFailure(Throwable error) {
        Throwable cause = Failures.unwrap(error);
        return new StoreFailure("state store write failed: " + cause.getMessage(), cause);
    }

    /** Waits for a change made outside the RPC path (startup, reconcile), as a checked failure. */
    static <T> T await(CompletableFuture<T> change) throws StoreFailure {
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

    static <T> void awaitAll(List<CompletableFuture<T>> changes) throws StoreFailure {
        for (CompletableFuture<T> change : changes) {
            await(change);
        }
    }
}
