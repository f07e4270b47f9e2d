package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Instant;

/** The {@link OperationContext} of one running transition; cancelled when its deadline passes. */
final class TransitionContext implements OperationContext {
    private final String machineId;
    private final String operationId;
    private final Instant deadline;
    private volatile boolean cancelled;
    private volatile boolean bootstrapCalled;

    TransitionContext(String machineId, String operationId, Instant deadline) {
        this.machineId = machineId;
        this.operationId = operationId;
        this.deadline = deadline;
    }

    @Override
    public String machineId() {
        return machineId;
    }

    @Override
    public String operationId() {
        return operationId;
    }

    @Override
    public Instant deadline() {
        return deadline;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    void cancel() {
        cancelled = true;
    }

    /** The bootstrap was handed to the backend: from now on the node may join its cluster. */
    void bootstrapCalled() {
        bootstrapCalled = true;
    }

    boolean wasBootstrapCalled() {
        return bootstrapCalled;
    }
}
