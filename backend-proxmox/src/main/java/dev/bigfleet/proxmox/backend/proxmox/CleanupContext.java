package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;

/**
 * The bounds of a cleanup that must run even when the transition it belongs to has ended (a seed
 * image removed after its Configure failed or timed out): a deadline of its own, never cancelled.
 */
record CleanupContext(String machineId, String operationId, Instant deadline) implements OperationContext {
    static CleanupContext within(String machineId, String what, Duration limit) {
        return new CleanupContext(machineId, what, Instant.now().plus(limit));
    }

    @Override
    public boolean isCancelled() {
        return false;
    }
}
