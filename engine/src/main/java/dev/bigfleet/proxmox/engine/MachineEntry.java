package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import java.util.HashMap;
import java.util.Map;

/**
 * The engine's holder for one machine. Every change runs in {@link #changes}, one at a time;
 * readers only read the volatile snapshot, so a Get or List never waits on a change.
 */
final class MachineEntry {
    final ChangeSequence changes = new ChangeSequence();
    private volatile Machine snapshot;
    private volatile long revision;
    /** Read and written only by changes in {@link #changes}. */
    private LastOperation lastOperation;
    /** Why the machine is FAILED, null otherwise; read and written only by changes in {@link #changes}. */
    private FailureRecord failure;
    /** Fence marks per shard id for this machine; read and written only by changes in {@link #changes}. */
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

    FailureRecord failure() {
        return failure;
    }

    void failure(FailureRecord record) {
        this.failure = record;
    }

    Map<String, FenceMark> marks() {
        return marks;
    }
}
