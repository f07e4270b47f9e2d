package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * One entry of {@code GET /cluster/resources}: a VM (qemu or lxc) or a node. {@code name},
 * {@code status} and {@code template} come from a statistics feed that lags up to 10 s (absent
 * for a VM that was just created); {@code node}, {@code tags}, {@code lock} and {@code pool} are live.
 */
public record ClusterResource(
        String type,
        long vmid,
        String node,
        String status,
        Optional<String> name,
        Optional<Boolean> template,
        long maxmem,
        long mem,
        int maxcpu,
        TagList tags,
        Optional<String> lock,
        Optional<String> pool) {

    static ClusterResource from(JsonNode n) {
        return new ClusterResource(
                Json.textOr(n, "type", ""),
                Json.number(n, "vmid", 0),
                Json.textOr(n, "node", ""),
                Json.textOr(n, "status", ""),
                Json.text(n, "name"),
                Json.flag(n, "template"),
                Json.number(n, "maxmem", 0),
                Json.number(n, "mem", 0),
                (int) Json.number(n, "maxcpu", 0),
                TagList.parse(Json.textOr(n, "tags", "")),
                Json.text(n, "lock").filter(s -> !s.isEmpty()),
                Json.text(n, "pool").filter(s -> !s.isEmpty()));
    }

    public boolean isQemu() {
        return type.equals("qemu");
    }

    public boolean isNode() {
        return type.equals("node");
    }

    /** For a VM: known to be a template (the statistics may not have said yet). */
    public boolean isTemplate() {
        return template.orElse(false);
    }

    public boolean running() {
        return status.equals("running");
    }

    /** For a node entry. */
    public boolean online() {
        return status.equals("online");
    }
}
