package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Restart recovery: machines a durable store held are put back as they were, numbering continues
 * after the stored counters, transitions a restart interrupted are failed, and Speculative slots no
 * offering backs any more are retired.
 */
final class RestartRecovery {
    private final MachineTable table;

    RestartRecovery(MachineTable table) {
        this.table = table;
    }

    /** Puts back one machine a durable store held, with its revision, marks and last operation. */
    void restore(StoredMachine stored) {
        MachineEntry entry = new MachineEntry(stored.machine());
        entry.lastOperation(stored.lastOperation());
        entry.marks().putAll(stored.marks());
        table.put(entry);
        table.index().restore(entry, stored.machine(), stored.revision());
        table.observer().machineChanged(null, stored.machine());
    }

    /** After every machine is back: numbering continues after the stored counters. */
    void restored(StoredCounters counters) {
        table.index().resumeAfter(counters.revision());
        table.resumeOperationsAfter(counters.lastOperationNumber());
    }

    /**
     * After a restart nothing is running: every machine left in a transitional state becomes FAILED,
     * saying which transition was interrupted.
     *
     * @return how many machines were failed
     */
    int failInterruptedTransitions() throws StoreFailure {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (MachineEntry entry : table.entries()) {
            if (entry.snapshot().state().isTransitional()) {
                writes.add(entry.changes.then(() -> {
                    Machine m = entry.snapshot();
                    TransitionKind kind = TransitionKind.forTransitional(m.state());
                    LastOperation last = entry.lastOperation();
                    String error = kind.label() + " transition" + (last == null ? "" : " " + last.operationId())
                            + " was interrupted by a provider restart";
                    return table.commit(entry, m.toBuilder().state(MachineState.FAILED).lastError(error).build(),
                            List.of());
                }));
            }
        }
        MachineTable.awaitAll(writes);
        return writes.size();
    }

    /**
     * Removes every Speculative machine whose id is not in {@code backed} (no offering renders it any
     * more), as one group of writes: a shrunk offering must not cost a commit per slot.
     *
     * @return how many were removed
     */
    int retireUnbacked(Set<String> backed) throws StoreFailure {
        List<CompletableFuture<Boolean>> retirements = new ArrayList<>();
        for (MachineEntry entry : table.entries()) {
            Machine m = entry.snapshot();
            if (m.state() == MachineState.SPECULATIVE && !backed.contains(m.id())) {
                retirements.add(entry.changes.then(() -> retire(entry)));
            }
        }
        int retired = 0;
        for (CompletableFuture<Boolean> retirement : retirements) {
            retired += MachineTable.await(retirement) ? 1 : 0;
        }
        return retired;
    }

    private CompletableFuture<Boolean> retire(MachineEntry entry) {
        Machine m = entry.snapshot();
        if (m.state() != MachineState.SPECULATIVE || !table.isVisible(entry)) {
            return CompletableFuture.completedFuture(false);
        }
        return MachineTable.durable(table.store().write(StoreWrite.deletion(m.id(), () -> table.index().remove(entry))))
                .thenApply(done -> {
                    table.remove(entry);
                    table.observer().machineChanged(m, null);
                    return true;
                });
    }
}
