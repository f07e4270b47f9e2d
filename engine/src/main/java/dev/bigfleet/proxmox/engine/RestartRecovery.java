package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.SlotMachineId;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Restart recovery: machines a durable store held are put back as they were, numbering continues
 * after the stored counters, transitions a restart interrupted are driven on (or failed, for a
 * Configure), and Speculative machines no offering backs any more (or whose slot a newer machine
 * holds) are retired.
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
        entry.failure(
                stored.failure() != null || stored.machine().state() != MachineState.FAILED
                        ? stored.failure()
                        : legacyFailure(stored));
        entry.marks().putAll(stored.marks());
        table.put(entry);
        table.index().restore(entry, stored.machine(), stored.revision());
        table.observer().machineChanged(null, stored.machine());
    }

    /**
     * A FAILED machine kept before failures were recorded: failed in its last operation's kind, bound
     * if that could have left a live node, its retention counted from now.
     */
    private static FailureRecord legacyFailure(StoredMachine stored) {
        TransitionKind kind = stored.lastOperation() == null
                ? TransitionKind.CREATE
                : stored.lastOperation().kind();
        boolean bound = kind == TransitionKind.CONFIGURE || kind == TransitionKind.DRAIN;
        return FailureRecord.of(kind, Instant.now(), bound, stored.machine().lastError());
    }

    /** After every machine is back: numbering continues after the stored counters. */
    void restored(StoredCounters counters) {
        table.index().resumeAfter(counters.revision());
        table.resumeOperationsAfter(counters.lastOperationNumber());
    }

    /**
     * After a restart nothing is running: a Create, Delete or Drain left in flight is driven on under
     * its operation id until its original deadline (Create adopts a clone that exists; a Delete of a
     * VM that is gone succeeds). A Configure cannot be: the bootstrap blob is never kept, so it becomes
     * FAILED, naming the operation, and counts as bound (its hook may have run).
     */
    RestartOutcome resumeInterruptedTransitions(TransitionRunner runner, Interruption interruption)
            throws StoreFailure {
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        int resumed = 0;
        for (MachineEntry entry : table.entries()) {
            Machine m = entry.snapshot();
            if (!m.state().isTransitional()) {
                continue;
            }
            TransitionKind kind = TransitionKind.forTransitional(m.state());
            LastOperation last = entry.lastOperation();
            if (kind != TransitionKind.CONFIGURE && last != null && last.kind() == kind) {
                runner.start(new TransitionRunner.Run(entry, m, last, new byte[0]));
                resumed++;
                continue;
            }
            writes.add(entry.changes.then(() -> {
                Machine current = entry.snapshot();
                String error = kind.label() + " transition" + (last == null ? "" : " " + last.operationId())
                        + " was interrupted by " + interruption.description()
                        + (kind == TransitionKind.CONFIGURE
                                ? " (the bootstrap blob is never kept, so it cannot go on)"
                                : "");
                Instant now = Instant.now();
                entry.failure(FailureRecord.of(
                        kind, now, kind == TransitionKind.CONFIGURE || kind == TransitionKind.DRAIN, error));
                // the history shows the operation as interrupted, not as running for ever
                OperationRecord interrupted = last == null || last.kind() != kind
                        ? null
                        : OperationRecord.ended(kind, last.operationId(), now, OperationOutcome.INTERRUPTED, error);
                return table.commit(
                        entry,
                        current.toBuilder()
                                .state(MachineState.FAILED)
                                .lastError(error)
                                .build(),
                        List.of(),
                        interrupted);
            }));
        }
        MachineTable.awaitAll(writes);
        return new RestartOutcome(resumed, writes.size());
    }

    /**
     * Removes every Speculative machine whose slot is not in {@code offered} (no offering renders it
     * any more, or it names no slot), or whose slot a newer machine holds, as one group of writes: a
     * shrunk offering must not cost a commit per slot.
     *
     * @return how many were removed
     */
    int retireUnbacked(Set<String> offered) throws StoreFailure {
        SlotHolders holders = SlotHolders.of(table.ids());
        List<CompletableFuture<Boolean>> retirements = new ArrayList<>();
        for (MachineEntry entry : table.entries()) {
            Machine m = entry.snapshot();
            if (m.state() != MachineState.SPECULATIVE) {
                continue;
            }
            Optional<SlotMachineId> slotMachine = SlotMachineId.parse(m.id());
            boolean backed = slotMachine.isPresent()
                    && offered.contains(slotMachine.get().slotId())
                    && !holders.isSuperseded(slotMachine.get());
            if (!backed) {
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
        return table.retire(entry).thenApply(done -> true);
    }
}
