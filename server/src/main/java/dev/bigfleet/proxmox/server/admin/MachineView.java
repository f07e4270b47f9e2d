package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.LifecycleEngine;
import dev.bigfleet.proxmox.engine.RecoveryPolicy;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.server.metrics.StateClock;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** One machine in full: its row, why it failed, and its recent operations as the state store keeps them. */
public final class MachineView {
    private final LifecycleEngine engine;
    private final InventoryView inventory;
    private final StateClock clock;
    private final RecoveryPolicy recovery;

    @Inject
    public MachineView(LifecycleEngine engine, InventoryView inventory, StateClock clock, RecoveryPolicy recovery) {
        this.engine = engine;
        this.inventory = inventory;
        this.clock = clock;
        this.recovery = recovery;
    }

    /** The machine, or empty when the engine does not know it. */
    public Optional<MachineDetail> machine(String id) throws StoreException {
        Optional<Machine> found = engine.get(id);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Instant now = clock.now();
        List<OperationRow> operations = new ArrayList<>();
        for (OperationRecord op : engine.operations(id)) {
            operations.add(row(op, now));
        }
        FailureRow failure = engine.failure(id).map(this::row).orElse(null);
        return Optional.of(new MachineDetail(inventory.row(found.get(), now), failure, operations));
    }

    private static OperationRow row(OperationRecord op, Instant now) {
        Long duration = op.startedAt()
                .map(start -> Math.max(
                        0, Duration.between(start, op.endedAt().orElse(now)).toSeconds()))
                .orElse(null);
        return new OperationRow(
                op.kind().label(),
                op.operationId(),
                op.startedAt().map(Instant::toString).orElse(null),
                op.endedAt().map(Instant::toString).orElse(null),
                duration,
                label(op.outcome()),
                op.error());
    }

    private FailureRow row(FailureRecord f) {
        Instant next = f.failedAt().plus(recovery.retention());
        if (f.cleanupNotBefore().isAfter(next)) {
            next = f.cleanupNotBefore();
        }
        return new FailureRow(
                f.kind().label(),
                f.failedAt().toString(),
                f.bound(),
                f.error(),
                f.cleanupAttempts(),
                recovery.enabled() ? next.toString() : null,
                f.needsAttention());
    }

    private static String label(OperationOutcome outcome) {
        return outcome.name().toLowerCase(Locale.ROOT);
    }
}
