package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.List;

/**
 * One storage as {@code GET /nodes/{node}/storage} reports it on that node: its plugin type
 * ({@code lvmthin}, {@code rbd}, ...), whether it is shared, enabled and active there, what it
 * holds, and its space in bytes.
 */
public record StorageStatus(
        String storage,
        String type,
        boolean shared,
        boolean enabled,
        boolean active,
        List<String> content,
        long total,
        long used,
        long avail) {

    public StorageStatus {
        content = List.copyOf(content);
    }

    static StorageStatus from(JsonNode n) {
        return new StorageStatus(
                Json.textOr(n, "storage", ""),
                Json.textOr(n, "type", ""),
                Json.flag(n, "shared").orElse(false),
                Json.flag(n, "enabled").orElse(true),
                Json.flag(n, "active").orElse(false),
                Arrays.stream(Json.textOr(n, "content", "").split(",", -1))
                        .map(String::trim)
                        .filter(s -> !s.isEmpty())
                        .toList(),
                Json.number(n, "total", 0),
                Json.number(n, "used", 0),
                Json.number(n, "avail", 0));
    }

    /** Usable on this node right now. */
    public boolean usable() {
        return enabled && active;
    }
}
