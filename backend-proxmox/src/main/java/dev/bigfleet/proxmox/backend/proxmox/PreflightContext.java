package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/** The bounds of one preflight step sequence: its own deadline, and cancelled when the run is interrupted. */
record PreflightContext(String machineId, String operationId, Instant deadline, BooleanSupplier cancelled)
        implements OperationContext {

    static PreflightContext of(String machineId, Duration within, BooleanSupplier cancelled) {
        return new PreflightContext(
                machineId, "preflight-" + UUID.randomUUID(), Instant.now().plus(within), cancelled);
    }

    @Override
    public boolean isCancelled() {
        return cancelled.getAsBoolean();
    }
}
