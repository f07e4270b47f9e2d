package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.SlotMachineId;
import java.util.HashMap;
import java.util.Map;

/**
 * The newest machine of each slot among a set of machine ids: the one that holds the slot. Older
 * machines of a slot are superseded; ids that name no slot's machine are left out.
 */
final class SlotHolders {
    /** Only slots with a machine past their first are kept: the rest are held by their slot's id. */
    private final Map<String, SlotMachineId> newest = new HashMap<>();

    static SlotHolders of(Iterable<String> machineIds) {
        SlotHolders holders = new SlotHolders();
        machineIds.forEach(holders::add);
        return holders;
    }

    void add(String machineId) {
        if (!mayBeLaterMachine(machineId)) {
            return;
        }
        SlotMachineId.parse(machineId).ifPresent(m -> newest.merge(m.slotId(), m, (a, b) -> b.supersedes(a) ? b : a));
    }

    /** The id of the newest machine of {@code slotId} seen, or the slot's own id. */
    String holderOf(String slotId) {
        SlotMachineId holder = newest.get(slotId);
        return holder == null ? slotId : holder.machineId();
    }

    /** Whether a newer machine of {@code machine}'s slot was seen. */
    boolean isSuperseded(SlotMachineId machine) {
        SlotMachineId holder = newest.get(machine.slotId());
        return holder != null && holder.supersedes(machine);
    }

    /**
     * A cheap test that skips parsing the common id, a slot's first machine: only an id whose last
     * part has a dot can be a later machine.
     */
    private static boolean mayBeLaterMachine(String machineId) {
        return machineId.lastIndexOf('.') > machineId.lastIndexOf('/');
    }
}
