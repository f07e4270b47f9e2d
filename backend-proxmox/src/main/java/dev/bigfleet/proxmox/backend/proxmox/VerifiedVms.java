package dev.bigfleet.proxmox.backend.proxmox;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * VMs proven owned and up a moment ago within the same operation: the engine calls ensureRunning
 * and then applyBootstrap (or drain) back to back, and the second need not list, read the config
 * and ping again. Entries are short-lived and keyed by operation id and machine.
 */
final class VerifiedVms {
    static final Duration TTL = Duration.ofSeconds(60);

    private record Entry(OwnedVm vm, Instant at) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    void put(String operationId, OwnedVm vm) {
        if (operationId.isEmpty()) {
            return;
        }
        Instant now = Instant.now();
        entries.values().removeIf(e -> e.at().plus(TTL).isBefore(now));
        entries.put(key(operationId, vm.machineId()), new Entry(vm, now));
    }

    /** The VM verified for this operation and machine, if recent and at the expected VMID. */
    Optional<OwnedVm> get(String operationId, String machineId, long vmid) {
        if (operationId.isEmpty()) {
            return Optional.empty();
        }
        Entry e = entries.get(key(operationId, machineId));
        if (e == null || e.vm().vmid() != vmid || e.at().plus(TTL).isBefore(Instant.now())) {
            return Optional.empty();
        }
        return Optional.of(e.vm());
    }

    void clear(String operationId, String machineId) {
        entries.remove(key(operationId, machineId));
    }

    private static String key(String operationId, String machineId) {
        return operationId + "\u0000" + machineId;
    }
}
