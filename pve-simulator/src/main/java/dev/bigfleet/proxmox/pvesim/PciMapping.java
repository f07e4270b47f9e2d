package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One cluster PCI resource mapping ({@code /cluster/mapping/pci/<id>}, a section of {@code
 * mapping/pci.cfg} as pve-guest-common's {@code PVE::Mapping::PCI} keeps it): its device entries,
 * each a {@code node=...,path=...,id=...} property string as given, an optional description and the
 * {@code mdev} and {@code live-migration-capable} flags (null when not set).
 */
record PciMapping(String id, List<String> map, String description, Integer mdev, Integer liveMigrationCapable) {

    private static final String PCI_ADDRESS = "[a-f0-9]{4,}:[a-f0-9]{2}:[a-f0-9]{2}(?:\\.[a-f0-9])?";
    private static final Pattern PATH = Pattern.compile("(?:" + PCI_ADDRESS + ";)*" + PCI_ADDRESS);
    private static final Pattern VENDOR_DEVICE = Pattern.compile("[0-9A-Fa-f]{4}:[0-9A-Fa-f]{4}");

    /** The format of one {@code map} entry: the device on one node. */
    static final PropertyString ENTRY = new PropertyString()
            .string("node", ParamSchema.NODE_CHECK)
            .requires("node")
            .string("id", v -> VENDOR_DEVICE.matcher(v).matches() ? null : "value does not match the regex pattern")
            .requires("id")
            .string(
                    "subsystem-id",
                    v -> VENDOR_DEVICE.matcher(v).matches() ? null : "value does not match the regex pattern")
            .string("path", v -> PATH.matcher(v).matches() ? null : "value does not match the regex pattern")
            .requires("path")
            .integer("iommugroup", Long.MIN_VALUE, Long.MAX_VALUE)
            .string("description", v -> v.length() > 4096 ? "value may only be 4096 characters long" : null);

    PciMapping {
        map = List.copyOf(map);
    }

    /**
     * The API's check of one {@code map} item at {@code path} ({@code map[0]}): null when valid, else
     * the error pve-common gives, ending in a line break as the stringified exception does.
     */
    static String checkEntry(String path, String value) {
        try {
            ENTRY.parse(value, path);
            return null;
        } catch (IllegalArgumentException e) {
            return "invalid format - " + e.getMessage() + "\n";
        }
    }

    /**
     * The devices the mapping has on {@code node}, as {@code get_node_mapping} finds them: entries
     * that do not parse are passed over.
     */
    List<Map<String, String>> devicesOn(String node) {
        List<Map<String, String>> out = new ArrayList<>();
        for (String entry : map) {
            try {
                Map<String, String> device = ENTRY.parse(entry);
                if (node.equals(device.get("node"))) {
                    out.add(device);
                }
            } catch (IllegalArgumentException e) {
                // pve-guest-common warns and goes on with the next entry
            }
        }
        return out;
    }

    /** The section as {@code PVE::SectionConfig} writes it: the required {@code map} first, then the rest sorted. */
    String section() {
        StringBuilder b = new StringBuilder(id).append('\n');
        for (String entry : map) {
            b.append("\tmap ").append(entry).append('\n');
        }
        if (description != null) {
            b.append("\tdescription ").append(description).append('\n');
        }
        if (liveMigrationCapable != null) {
            b.append("\tlive-migration-capable ").append(liveMigrationCapable).append('\n');
        }
        if (mdev != null) {
            b.append("\tmdev ").append(mdev).append('\n');
        }
        return b.append('\n').toString();
    }

    /** The entry as the API reads it back from {@code pci.cfg}: {@code type}, {@code map} and what is set. */
    Map<String, Object> json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "pci");
        out.put("map", map);
        if (description != null) {
            out.put("description", description);
        }
        if (mdev != null) {
            out.put("mdev", mdev);
        }
        if (liveMigrationCapable != null) {
            out.put("live-migration-capable", liveMigrationCapable);
        }
        return out;
    }
}
