package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    private static String key(String type, String node) {
        return type + "@" + node;
    }
}
