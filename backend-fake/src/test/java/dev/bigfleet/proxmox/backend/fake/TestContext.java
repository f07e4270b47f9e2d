package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/** An operation context whose cancellation the test controls. */
final class TestContext implements OperationContext {
    private static final AtomicLong OPERATIONS = new AtomicLong();

    private final String machineId;
    private final String operationId = "op-" + OPERATIONS.incrementAndGet();
    private final Instant deadline;
    private final AtomicBoolean cancelled = new AtomicBoolean();

    private TestContext(String machineId, Instant deadline) {
        this.machineId = machineId;
        this.deadline = deadline;
    }

    static TestContext forMachine(String machineId) {
        return new TestContext(machineId, Instant.now().plus(Duration.ofMinutes(1)));
    }

    static TestContext withDeadline(String machineId, Duration timeout) {
        return new TestContext(machineId, Instant.now().plus(timeout));
    }

    void cancel() {
        cancelled.set(true);
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
        return cancelled.get();
    }
}
