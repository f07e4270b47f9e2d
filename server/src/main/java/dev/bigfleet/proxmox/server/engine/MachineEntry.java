package dev.bigfleet.proxmox.server.engine;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.Machine;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's holder for one machine. Mutations take {@link #lock}; readers only read the
 * volatile snapshot, so a Get or List never waits on a mutation.
 */
final class MachineEntry {
    final ReentrantLock lock = new ReentrantLock();
    private volatile Machine snapshot;
    private volatile long revision;
    /** Guarded by {@link #lock}. */
    private LastOperation lastOperation;
    /** Fence marks per shard id for this machine; guarded by {@link #lock}. */
    private final Map<String, FenceMark> marks = new HashMap<>();

    MachineEntry(Machine snapshot) {
        this.snapshot = snapshot;
    }

    Machine snapshot() {
        return snapshot;
    }

    long revision() {
        return revision;
    }

    /** Called only by the revision index, which owns the ordering of changes. */
    void publish(Machine next, long newRevision) {
        this.snapshot = next;
        this.revision = newRevision;
    }

    LastOperation lastOperation() {
        return lastOperation;
    }

    void lastOperation(LastOperation op) {
        this.lastOperation = op;
    }

    Map<String, FenceMark> marks() {
        return marks;
    }
}
