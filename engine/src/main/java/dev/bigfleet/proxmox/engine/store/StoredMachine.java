package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.Machine;
import java.util.Map;

/**
 * One machine as the store holds it: the snapshot, its revision, its last operation, why it is FAILED
 * (null unless it is) and its fence marks.
 */
public record StoredMachine(
        Machine machine,
        long revision,
        LastOperation lastOperation,
        FailureRecord failure,
        Map<String, FenceMark> marks) {
    public StoredMachine {
        marks = Map.copyOf(marks);
    }

    /** A machine that is not FAILED. */
    public StoredMachine(Machine machine, long revision, LastOperation lastOperation, Map<String, FenceMark> marks) {
        this(machine, revision, lastOperation, null, marks);
    }
}
