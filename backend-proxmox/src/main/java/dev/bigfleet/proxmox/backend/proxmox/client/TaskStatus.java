package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/** {@code GET /nodes/{node}/tasks/{upid}/status}. */
public record TaskStatus(boolean running, Optional<String> exitStatus) {
    static TaskStatus from(JsonNode n) {
        return new TaskStatus(
                Json.textOr(n, "status", "").equals("running"),
                Json.text(n, "exitstatus").map(String::strip));
    }

    /** {@code OK}, or {@code WARNINGS: n} which is a success that logged warnings. */
    public boolean succeeded() {
        return !running
                && exitStatus
                        .map(s -> s.equals("OK") || s.startsWith("WARNINGS"))
                        .orElse(false);
    }

    /** Whether it succeeded with warnings ({@code WARNINGS: n}): its log says what they were. */
    public boolean warned() {
        return !running && exitStatus.map(s -> s.startsWith("WARNINGS")).orElse(false);
    }

    /** The failure text; {@code unexpected status} when the task log ended without one. */
    public String failure() {
        return exitStatus.filter(s -> !s.isEmpty()).orElse("unexpected status");
    }
}
