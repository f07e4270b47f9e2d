package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** {@code GET …/status/current}: the live power state, without the statistics lag. */
public record VmStatus(String status, String qmpStatus, Optional<String> lock) {
    static VmStatus from(JsonNode n) {
        String status = Json.textOr(n, "status", "");
        return new VmStatus(
                status,
                Json.textOr(n, "qmpstatus", status),
                Json.text(n, "lock").filter(s -> !s.isEmpty()));
    }

    public boolean running() {
        return status.equals("running");
    }
}
