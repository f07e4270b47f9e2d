package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;

/** One element of {@code GET /nodes}; memory in bytes, statistics absent for an offline node. */
public record NodeEntry(String node, boolean online, long maxmem, long mem, int maxcpu) {
    static NodeEntry from(JsonNode n) {
        return new NodeEntry(
                Json.textOr(n, "node", ""),
                Json.textOr(n, "status", "").equals("online"),
                Json.number(n, "maxmem", 0),
                Json.number(n, "mem", 0),
                (int) Json.number(n, "maxcpu", 0));
    }
}
