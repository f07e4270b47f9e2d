package dev.bigfleet.proxmox.api;

import java.util.Optional;

/**
 * Which slot a machine id belongs to, and which of that slot's machines it names. A slot's first
 * machine has the slot's id ({@link SlotId}); once a FAILED machine is cleaned up, its slot is offered
 * again by a new machine, {@code <slot id>.2}, then {@code .3}, and so on. The BigFleet shard never
 * sees a machine leave FAILED: the FAILED record leaves the inventory and a new id appears, which its
 * reconcile inserts as a new Speculative machine.
 *
 * @param slotId the slot's id, which {@link SlotId#parse} accepts
 * @param generation 1 for the slot's first machine, counting up by one for each that follows
 */
public record SlotMachineId(String slotId, int generation) {
    public SlotMachineId {
        if (SlotId.parse(slotId).isEmpty()) {
            throw new IllegalArgumentException("not a slot id: " + slotId);
        }
        if (generation < 1) {
            throw new IllegalArgumentException("a slot's machines count from 1, got " + generation);
        }
    }

    /** The slot's first machine. */
    public static SlotMachineId first(String slotId) {
        return new SlotMachineId(slotId, 1);
    }

    /**
     * Splits a machine id into its slot and generation. Only canonical spellings parse ({@code .1},
     * {@code .02} and non-ASCII digits are refused), so two spellings never name the same machine.
     */
    public static Optional<SlotMachineId> parse(String machineId) {
        int slash = machineId.lastIndexOf('/');
        int dot = machineId.lastIndexOf('.');
        if (dot <= slash) {
            return SlotId.parse(machineId).map(parts -> first(machineId));
        }
        String digits = machineId.substring(dot + 1);
        if (digits.isEmpty()
                || digits.length() > 9
                || digits.charAt(0) == '0'
                || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Optional.empty();
        }
        int generation = Integer.parseInt(digits);
        String slotId = machineId.substring(0, dot);
        if (generation < 2 || SlotId.parse(slotId).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new SlotMachineId(slotId, generation));
    }

    /** The slot of {@code machineId}, if it names a slot's machine. */
    public static Optional<String> slotOf(String machineId) {
        return parse(machineId).map(SlotMachineId::slotId);
    }

    /** The machine id this names. */
    public String machineId() {
        return generation == 1 ? slotId : slotId + "." + generation;
    }

    /** The machine that offers the slot after this one. */
    public SlotMachineId next() {
        if (generation == Integer.MAX_VALUE) {
            throw new IllegalStateException("slot " + slotId + " has no machine after generation " + generation);
        }
        return new SlotMachineId(slotId, generation + 1);
    }

    /** Whether this is a later machine of the same slot than {@code other}. */
    public boolean supersedes(SlotMachineId other) {
        return slotId.equals(other.slotId) && generation > other.generation;
    }
}
