package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.SlotId;
import dev.bigfleet.proxmox.api.SlotMachineId;
import dev.bigfleet.proxmox.spi.BackendException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every (instance type, node) the offerings place clones on, resolved at startup. */
final class PlacementPlan {
    private final Map<String, Placement> byKey = new LinkedHashMap<>();

    PlacementPlan(List<Placement> placements) {
        for (Placement p : placements) {
            byKey.put(key(p.type().name(), p.node()), p);
        }
    }

    Placement get(String type, String node) throws BackendException {
        Placement p = byKey.get(key(type, node));
        if (p == null) {
            throw new BackendException("no offering places instance type " + type + " on node " + node
                    + ", so no template was chosen for it at startup");
        }
        return p;
    }

    Collection<Placement> all() {
        return byKey.values();
    }

    /**
     * How the guest of {@code machineId}'s VM gets its bootstrap: its instance type's, read from the
     * machine id ({@link SlotMachineId}); the guest agent for an id that names no slot of a type placed
     * here (a VM adopted under a foreign id).
     */
    GuestBootstrap bootstrapOf(String machineId) {
        return instanceTypeOf(machineId)
                .flatMap(type -> byKey.values().stream()
                        .filter(p -> p.type().name().equals(type))
                        .findFirst())
                .map(Placement::bootstrap)
                .orElse(GuestBootstrap.AGENT);
    }

    /** The instance type a slot's machine id names. */
    static Optional<String> instanceTypeOf(String machineId) {
        return SlotMachineId.slotOf(machineId).flatMap(SlotId::parse).map(SlotId.Parts::instanceType);
    }

    /** Whether any type placed here delivers its bootstrap through a NoCloud seed. */
    /**
     * The pools the provider's clones may be in, when {@code --proxmox-pool} is set: it and every
     * type's own; empty (any pool) without it.
     */
    java.util.Set<String> pools(Optional<String> global) {
        if (global.isEmpty()) {
            return java.util.Set.of();
        }
        java.util.Set<String> out = new java.util.TreeSet<>();
        out.add(global.get());
        all().forEach(p -> p.shape().pool().ifPresent(out::add));
        return out;
    }

    boolean anyNocloud() {
        return byKey.values().stream().anyMatch(p -> p.bootstrap().nocloud());
    }

    private static String key(String type, String node) {
        return type + "@" + node;
    }
}
