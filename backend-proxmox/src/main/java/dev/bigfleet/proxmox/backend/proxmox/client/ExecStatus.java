package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.OptionalInt;

/**
 * {@code GET …/agent/exec-status}: {@code exited} stays false until the process ended and closed
 * its output; the first answer with {@code exited} true is the only one (the agent then forgets
 * the PID). A process killed by a signal reports its signal and no exit code. The agent keeps
 * at most 16 MiB of each output; {@code outTruncated} and {@code errTruncated} say it dropped the
 * rest.
 */
public record ExecStatus(
        boolean exited,
        OptionalInt exitCode,
        OptionalInt signal,
        String out,
        String err,
        boolean outTruncated,
        boolean errTruncated) {
    static ExecStatus from(JsonNode n) {
        return new ExecStatus(
                Json.flag(n, "exited").orElse(false),
                optionalInt(n, "exitcode"),
                optionalInt(n, "signal"),
                Json.textOr(n, "out-data", ""),
                Json.textOr(n, "err-data", ""),
                Json.flag(n, "out-truncated").orElse(false),
                Json.flag(n, "err-truncated").orElse(false));
    }

    private static OptionalInt optionalInt(JsonNode n, String field) {
        return n != null && n.hasNonNull(field) ? OptionalInt.of((int) Json.number(n, field, 0)) : OptionalInt.empty();
    }

    /** Exited normally with status 0. */
    public boolean succeeded() {
        return exited && signal.isEmpty() && exitCode.orElse(-1) == 0;
    }
}
