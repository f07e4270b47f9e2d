package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of {@code GET /nodes/{node}/qemu/{vmid}/config} the provider reads. {@code memory} is
 * a string on PVE 8.1+ and {@code agent} a property string, both parsed here; {@code entries}
 * holds every option as text (drives, NICs, {@code cpu}, {@code boot}).
 */
public record VmConfig(
        Optional<String> name,
        Optional<String> description,
        TagList tags,
        int cores,
        long memoryMib,
        boolean agentEnabled,
        boolean template,
        Optional<String> lock,
        Map<String, String> entries) {

    public VmConfig {
        entries = Map.copyOf(entries);
    }

    static VmConfig from(JsonNode n) {
        Map<String, String> entries = new LinkedHashMap<>();
        if (n != null && n.isObject()) {
            n.properties().forEach(e -> {
                if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                    entries.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        return new VmConfig(
                Json.text(n, "name"),
                Json.text(n, "description"),
                TagList.parse(Json.textOr(n, "tags", "")),
                (int) Json.number(n, "cores", 0),
                Json.number(n, "memory", 0),
                agent(Json.text(n, "agent")),
                Json.flag(n, "template").orElse(false),
                Json.text(n, "lock").filter(s -> !s.isEmpty()),
                entries);
    }

    /** The config's SHA-1 digest, for a write that must not overwrite a change made since the read. */
    public Optional<String> digest() {
        return entry("digest");
    }

    public Optional<String> entry(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    /** {@code 1}, {@code enabled=1,fstrim_cloned_disks=1}, {@code 0}; absent means off. */
    static boolean agent(Optional<String> value) {
        if (value.isEmpty()) {
            return false;
        }
        for (String part : value.get().split(",", -1)) {
            String p = part.trim();
            if (!p.contains("=")) {
                return Json.truthy(p);
            }
            if (p.startsWith("enabled=")) {
                return Json.truthy(p.substring("enabled=".length()));
            }
        }
        return false;
    }
}
