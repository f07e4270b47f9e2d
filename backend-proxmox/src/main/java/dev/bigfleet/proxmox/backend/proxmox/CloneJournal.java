package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The VMIDs this process asked Proxmox to clone for each machine while the outcome is not settled
 * (the clone is running, or its answer was lost). A clone is invisible by description until its
 * first disk is copied, so a retried Create checks these VMIDs instead of cloning a second VM.
 */
final class CloneJournal {
    private final Map<String, Set<Long>> attempts = new ConcurrentHashMap<>();

    void begin(String machineId, long vmid) {
        attempts.computeIfAbsent(machineId, m -> ConcurrentHashMap.newKeySet()).add(vmid);
    }

    void end(String machineId, long vmid) {
        attempts.computeIfPresent(machineId, (m, s) -> {
            s.remove(vmid);
            return s.isEmpty() ? null : s;
        });
    }

    void settle(String machineId) {
        attempts.remove(machineId);
    }

    /** Whether this process asked for a clone onto that VMID, for any machine, still unsettled. */
    boolean started(long vmid) {
        return attempts.values().stream().anyMatch(s -> s.contains(vmid));
    }

    Set<Long> vmids(String machineId) {
        Set<Long> s = attempts.get(machineId);
        return s == null ? Set.of() : Set.copyOf(s);
    }
}
