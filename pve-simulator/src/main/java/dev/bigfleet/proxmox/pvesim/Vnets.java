package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster's SDN VNets ({@code sdn/vnets.cfg}, applied as it is: running and pending
 * configuration are the same), from {@link SimulatorConfig#vnets()}.
 */
final class Vnets {
    private final Map<String, VnetSpec> byName = new LinkedHashMap<>();
    private final String digest;

    Vnets(List<VnetSpec> specs) {
        StringBuilder file = new StringBuilder();
        for (VnetSpec v : specs) {
            byName.put(v.name(), v);
            file.append(section(v));
        }
        this.digest = SectionConfigDigest.of(file.toString());
    }

    /** As {@code PVE::SectionConfig} writes a VNet: the required {@code zone} first, then the rest sorted. */
    private static String section(VnetSpec v) {
        StringBuilder b = new StringBuilder("vnet: ").append(v.name()).append('\n');
        b.append("\tzone ").append(v.zone()).append('\n');
        if (v.alias() != null && !v.alias().isEmpty()) {
            b.append("\talias ").append(v.alias()).append('\n');
        }
        if (v.tag() != null) {
            b.append("\ttag ").append(v.tag()).append('\n');
        }
        return b.append('\n').toString();
    }

    VnetSpec get(String name) {
        return byName.get(name);
    }

    /** Every VNet, by name (as {@code sdn_vnets_ids} sorts them). */
    List<VnetSpec> sorted() {
        List<VnetSpec> out = new ArrayList<>(byName.values());
        out.sort(Comparator.comparing(VnetSpec::name));
        return out;
    }

    /** The SHA-1 of {@code sdn/vnets.cfg}. */
    String digest() {
        return digest;
    }

    /** The VNet's section as {@code GET /cluster/sdn/vnets} shows it, with the file's digest (or null). */
    static Map<String, Object> json(VnetSpec v, String digest) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "vnet");
        out.put("zone", v.zone());
        if (v.tag() != null) {
            out.put("tag", v.tag());
        }
        if (v.alias() != null) {
            out.put("alias", v.alias());
        }
        out.put("vnet", v.name());
        out.put("digest", digest);
        return out;
    }
}
