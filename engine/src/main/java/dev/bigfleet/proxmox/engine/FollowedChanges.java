package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A standby's view, kept warm: each change the leader committed replaces what the view held of
 * that machine (snapshot, revision, last operation, failure, marks), as a change in the machine's
 * sequence, so taking over finds the inventory in memory instead of reading it afresh. Nothing
 * here writes to the store.
 */
final class FollowedChanges implements StoreFollower {
    private static final Logger log = LoggerFactory.getLogger(FollowedChanges.class);

    private final MachineTable table;

    FollowedChanges(MachineTable table) {
        this.table = table;
    }

    @Override
    public void changed(StoredMachine stored) {
        String id = stored.machine().id();
        MachineEntry entry = table.entry(id);
        if (entry == null) {
            entry = new MachineEntry(stored.machine());
            table.put(entry);
        }
        MachineEntry target = entry;
        settle(target.changes.then(() -> {
            Machine before = target.revision() == 0 ? null : target.snapshot();
            target.lastOperation(stored.lastOperation());
            target.failure(stored.failure());
            target.marks().clear();
            target.marks().putAll(stored.marks());
            table.index().follow(target, stored.machine(), stored.revision());
            table.observer().machineChanged(before, stored.machine());
            return CompletableFuture.completedFuture(null);
        }));
    }

    @Override
    public void removed(String machineId) {
        MachineEntry entry = table.entry(machineId);
        if (entry == null) {
            return;
        }
        settle(entry.changes.then(() -> {
            Machine before = entry.revision() == 0 ? null : entry.snapshot();
            table.index().remove(entry);
            table.remove(entry);
            if (before != null) {
                table.observer().machineChanged(before, null);
            }
            return CompletableFuture.completedFuture(null);
        }));
    }

    @Override
    public void counters(StoredCounters counters) {
        table.index().resumeAfter(counters.revision());
        table.resumeOperationsAfter(counters.lastOperationNumber());
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback logs the only failure it can have
    private static void settle(CompletableFuture<Void> change) {
        change.whenComplete((ok, error) -> {
            if (error != null) {
                log.error("applying a followed change failed", Failures.unwrap(error));
            }
        });
    }
}
