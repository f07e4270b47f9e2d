package dev.bigfleet.proxmox.engine.store;

import dev.bigfleet.proxmox.api.Machine;
import java.util.List;

/**
 * One small transaction: a machine's new snapshot (with its revision and last operation), fence
 * marks that advanced, or a retired machine. Never the bootstrap blob: it is not part of any
 * snapshot.
 *
 * @param machine the new snapshot, or null for a marks-only write
 * @param failure why the machine is FAILED and where its cleanup stands; null unless it is FAILED
 * @param operation an operation of {@code machine} this write starts or ends, for its history; null
 *     for every other write (see {@link StateStore#operations})
 * @param deletedMachineId a machine to remove, or null
 * @param revision the revision of {@code machine}, 0 when there is none
 * @param lastOperationNumber the highest operation number minted so far
 * @param afterDurable runs once the write is durable, before its future completes
 */
public record StoreWrite(
        Machine machine,
        LastOperation lastOperation,
        FailureRecord failure,
        OperationRecord operation,
        List<MarkWrite> marks,
        String deletedMachineId,
        long revision,
        long lastOperationNumber,
        Runnable afterDurable) {

    public StoreWrite {
        marks = List.copyOf(marks);
        afterDurable = afterDurable == null ? () -> {} : afterDurable;
        if (operation != null && machine == null) {
            throw new IllegalArgumentException("an operation is recorded with its machine's write");
        }
    }

    /** A write that starts or ends no operation. */
    public StoreWrite(
            Machine machine,
            LastOperation lastOperation,
            FailureRecord failure,
            List<MarkWrite> marks,
            String deletedMachineId,
            long revision,
            long lastOperationNumber,
            Runnable afterDurable) {
        this(
                machine,
                lastOperation,
                failure,
                null,
                marks,
                deletedMachineId,
                revision,
                lastOperationNumber,
                afterDurable);
    }

    /** A write of a machine that is not FAILED. */
    public StoreWrite(
            Machine machine,
            LastOperation lastOperation,
            List<MarkWrite> marks,
            String deletedMachineId,
            long revision,
            long lastOperationNumber,
            Runnable afterDurable) {
        this(machine, lastOperation, null, null, marks, deletedMachineId, revision, lastOperationNumber, afterDurable);
    }

    /** A write that changes nothing; lets a store's writer wake up. */
    public static StoreWrite marksOnlyNone() {
        return marksOnly(List.of());
    }

    public static StoreWrite marksOnly(List<MarkWrite> marks) {
        return new StoreWrite(null, null, marks, null, 0, 0, null);
    }

    public static StoreWrite deletion(String machineId, Runnable afterDurable) {
        return new StoreWrite(null, null, List.of(), machineId, 0, 0, afterDurable);
    }
}
