package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The cluster's PCI resource mappings, {@code /etc/pve/mapping/pci.cfg}: mappings in the order they
 * were created, and the file's digest (SHA-1 of its text, as {@code PVE::SectionConfig} computes
 * it), which changes with every write. Seeded from {@link SimulatorConfig#pciMappings()}.
 */
final class PciMappings {
    private final Map<String, PciMapping> byId = new LinkedHashMap<>();

    /** The mappings the cluster starts with, by id, each with its devices by node. */
    PciMappings(Map<String, Map<String, Integer>> seed) {
        new TreeMap<>(seed).forEach((id, perNode) -> {
            List<String> map = new ArrayList<>();
            new TreeMap<>(perNode).forEach((node, devices) -> {
                for (int i = 0; i < devices; i++) {
                    map.add("id=10de:20b5,iommugroup=" + (40 + i) + ",node=" + node + ",path=0000:"
                            + String.format("%02x", 0x41 + i) + ":00.0,subsystem-id=10de:1533");
                }
            });
            byId.put(id, new PciMapping(id, map, null, null, null));
        });
    }

    PciMapping get(String id) {
        return byId.get(id);
    }

    Collection<PciMapping> all() {
        return byId.values();
    }

    /** Adds a mapping, or replaces one in its place. */
    void put(PciMapping m) {
        byId.put(m.id(), m);
    }

    void remove(String id) {
        byId.remove(id);
    }

    /** The SHA-1 of the file's text (that of an empty file when there is no mapping). */
    String digest() {
        StringBuilder text = new StringBuilder();
        for (PciMapping m : byId.values()) {
            text.append(m.section());
        }
        return SectionConfigDigest.of(text.toString());
    }
}
