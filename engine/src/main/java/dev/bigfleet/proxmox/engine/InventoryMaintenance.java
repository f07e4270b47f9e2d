package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seed and reconcile maintenance: adding machines the engine does not know, refreshing substrate
 * facts, and failing a stable machine whose VM the substrate lost. Each is a change in the machine's
 * sequence like any mutation, so it never races a transition.
 */
final class InventoryMaintenance {
    private static final Logger log = LoggerFactory.getLogger(InventoryMaintenance.class);

    private final MachineTable table;

    InventoryMaintenance(MachineTable table) {
        this.table = table;
    }

    /** Adds machines the engine does not know yet (seeding, reconcile); known ids are skipped. */
    int addMachines(Collection<Machine> toAdd) throws StoreFailure {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (Machine m : toAdd) {
            if (table.entry(m.id()) != null) {
                continue;
            }
            MachineEntry entry = new MachineEntry(m);
            if (table.add(entry)) {
                // queued together so a large seed is group-committed, not one fsync per machine
                writes.add(entry.changes.then(() -> table.commit(entry, m, List.of())));
            }
        }
        MachineTable.awaitAll(writes);
        return writes.size();
    }

    /**
     * Replaces substrate facts (price, resources, allocatable, labels) of a known machine, bumping the
     * revision only when something really changed.
     */
    boolean refreshFacts(String id, UnaryOperator<Machine> refresh) throws StoreFailure {
        MachineEntry entry = table.entry(id);
        if (entry == null) {
            return false;
        }
        return MachineTable.await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            Machine next = refresh.apply(current);
            if (next.equals(current) || !table.isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            return table.commit(entry, next, List.of()).thenApply(done -> true);
        }));
    }

    /**
     * Fails a stable machine the substrate lost, unless it changed since {@code seen} was read.
     *
     * @return whether it was failed
     */
    boolean failIfUnchanged(Machine seen, String error) throws StoreFailure {
        MachineEntry entry = table.entry(seen.id());
        if (entry == null) {
            return false;
        }
        return MachineTable.await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            if (!current.equals(seen) || !table.isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            log.warn("machine {} failed: {}", current.id(), error);
            // its VM is gone, so nothing is left to drain: the cleanup only has to prove that
            LastOperation last = entry.lastOperation();
            FailureRecord before = entry.failure();
            entry.failure(
                    FailureRecord.of(last == null ? TransitionKind.CREATE : last.kind(), Instant.now(), false, error));
            return table.commit(
                            entry,
                            current.toBuilder()
                                    .state(MachineState.FAILED)
                                    .lastError(error)
                                    .build(),
                            List.of())
                    .handle((done, e) -> {
                        if (e != null) {
                            entry.failure(before);
                            throw e instanceof CompletionException c ? c : new CompletionException(e);
                        }
                        return true;
                    });
        }));
    }

    /**
     * Clears the host of a FAILED machine whose VM the substrate no longer has, unless the machine
     * changed since {@code seen} was read: it no longer holds a VM, so it must not claim one.
     *
     * @return whether the host was cleared
     */
    boolean releaseLostHost(Machine seen) throws StoreFailure {
        MachineEntry entry = table.entry(seen.id());
        if (entry == null) {
            return false;
        }
        return MachineTable.await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            if (!current.equals(seen)
                    || current.state() != MachineState.FAILED
                    || current.host().isEmpty()
                    || !table.isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            log.info(
                    "FAILED machine {} no longer holds VM {}: it is gone",
                    current.id(),
                    current.host().ref());
            return table.commit(entry, current.toBuilder().host(HostRef.NONE).build(), List.of())
                    .thenApply(done -> true);
        }));
    }

    /**
     * Replaces a machine with what the cluster says it is ({@link ClusterRebuild}), unless it changed
     * since {@code seen} was read. A transitional machine's interrupted transition is dropped with it.
     *
     * @return whether it was replaced
     */
    boolean rebuild(Machine seen, Machine next) throws StoreFailure {
        MachineEntry entry = table.entry(seen.id());
        if (entry == null) {
            return false;
        }
        return MachineTable.await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            if (!current.equals(seen) || next.equals(current) || !table.isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            return table.commit(entry, next, List.of()).thenApply(done -> true);
        }));
    }

    /**
     * Makes the cleanup of a FAILED machine drain its VM first, because the VM says it is bound to a
     * cluster, unless the machine changed since {@code seen} was read.
     *
     * @return whether the failure was marked
     */
    boolean markFailureBound(Machine seen) throws StoreFailure {
        MachineEntry entry = table.entry(seen.id());
        if (entry == null) {
            return false;
        }
        return MachineTable.await(entry.changes.then(() -> {
            Machine current = entry.snapshot();
            FailureRecord before = entry.failure();
            if (!current.equals(seen)
                    || current.state() != MachineState.FAILED
                    || before == null
                    || before.bound()
                    || !table.isVisible(entry)) {
                return CompletableFuture.completedFuture(false);
            }
            entry.failure(new FailureRecord(
                    before.kind(),
                    before.failedAt(),
                    true,
                    before.error(),
                    before.cleanupAttempts(),
                    before.cleanupNotBefore()));
            return table.commit(entry, current, List.of()).handle((done, e) -> {
                if (e != null) {
                    entry.failure(before);
                    throw e instanceof CompletionException c ? c : new CompletionException(e);
                }
                return true;
            });
        }));
    }
}
