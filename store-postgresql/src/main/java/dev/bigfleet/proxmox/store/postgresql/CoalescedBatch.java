package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group of queued writes as one commit writes them: per machine only the last snapshot counts, a
 * retirement drops what came before it, and marks keep the latest per shard. One statement can then
 * write every row of the group without touching a row twice.
 */
final class CoalescedBatch {
    /** What the commit does to one machine. */
    static final class MachineChange {
        /** The snapshot to write, or null when only marks changed (or the machine was retired). */
        StoreWrite snapshot;
        /** Whether the machine was retired; a snapshot after the retirement brings it back. */
        boolean retired;

        final Map<String, FenceMark> marks = new LinkedHashMap<>();
    }

    final Map<String, MachineChange> machines = new LinkedHashMap<>();
    long revision;
    long lastOperationNumber;

    CoalescedBatch(List<StoreWrite> writes) {
        for (StoreWrite w : writes) {
            if (w.deletedMachineId() != null) {
                MachineChange change = change(w.deletedMachineId());
                change.snapshot = null;
                change.retired = true;
                change.marks.clear();
            }
            if (w.machine() != null) {
                change(w.machine().id()).snapshot = w;
            }
            for (MarkWrite m : w.marks()) {
                change(m.machineId()).marks.put(m.shardId(), m.mark());
            }
            revision = Math.max(revision, w.revision());
            lastOperationNumber = Math.max(lastOperationNumber, w.lastOperationNumber());
        }
    }

    private MachineChange change(String id) {
        return machines.computeIfAbsent(id, k -> new MachineChange());
    }
}
