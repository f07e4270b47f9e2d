package dev.bigfleet.proxmox.backend.proxmox;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A NIC entry ({@code virtio=BC:24:11:00:00:10,bridge=vmbr0,firewall=1}): its model and options.
 * Rewritten for a clone it keeps the model and options, moves to another bridge or VLAN and drops
 * the MAC, so Proxmox gives it a fresh one.
 */
record NicSpec(String model, Map<String, String> options) {
    /** qemu-server's NIC models. */
    static final List<String> MODELS = List.of(
            "e1000",
            "e1000-82540em",
            "e1000-82544gc",
            "e1000-82545em",
            "e1000e",
            "i82551",
            "i82557b",
            "i82559er",
            "ne2k_isa",
            "ne2k_pci",
            "pcnet",
            "rtl8139",
            "virtio",
            "vmxnet3");

    NicSpec {
        options = Map.copyOf(options);
    }

    static Optional<NicSpec> parse(String value) {
        String model = null;
        Map<String, String> options = new LinkedHashMap<>();
        for (String part : value.split(",", -1)) {
            int eq = part.indexOf('=');
            String k = eq < 0 ? part : part.substring(0, eq);
            if (MODELS.contains(k)) {
                model = k;
            } else if (k.equals("model") && eq > 0) {
                model = part.substring(eq + 1);
            } else if (eq > 0 && !k.equals("macaddr")) {
                options.put(k, part.substring(eq + 1));
            }
        }
        return model == null ? Optional.empty() : Optional.of(new NicSpec(model, options));
    }

    Optional<String> bridge() {
        return Optional.ofNullable(options.get("bridge"));
    }

    Optional<String> tag() {
        return Optional.ofNullable(options.get("tag"));
    }

    /** The entry to write: on {@code bridge}, tagged {@code vlan} (or untagged), without a MAC. */
    String render(String bridge, Optional<Integer> vlan) {
        Map<String, String> o = new java.util.TreeMap<>(options);
        o.put("bridge", bridge);
        o.remove("tag");
        vlan.ifPresent(v -> o.put("tag", Integer.toString(v)));
        StringBuilder b = new StringBuilder(model);
        o.forEach((k, v) -> b.append(',').append(k).append('=').append(v));
        return b.toString();
    }
}
