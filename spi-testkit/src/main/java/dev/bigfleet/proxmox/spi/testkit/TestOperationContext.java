package dev.bigfleet.proxmox.spi.testkit;

import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounds of one backend call in a test: a machine id, a fresh operation id, a deadline, and a
 * cancellation the test controls ({@link #cancel()}), as the engine sets it when a transition's
 * deadline passes. It never cancels itself: a test that wants the interrupt too interrupts the
 * calling thread (see {@link BackgroundCall}).
 */
public final class TestOperationContext implements OperationContext {
    /** The deadline of {@link #forMachine}: long enough for any test step, short enough to end a hang. */
    public static final Duration DEFAULT_BUDGET = Duration.ofMinutes(1);

    private static final AtomicLong OPERATIONS = new AtomicLong();

    private final String machineId;
    private final String operationId = "op-" + OPERATIONS.incrementAndGet();
    private final Instant deadline;
    private final AtomicBoolean cancelled = new AtomicBoolean();

    private TestOperationContext(String machineId, Instant deadline) {
        this.machineId = Objects.requireNonNull(machineId, "machineId");
        this.deadline = deadline;
    }

    /** A call for {@code machineId} with {@link #DEFAULT_BUDGET} until its deadline. */
    public static TestOperationContext forMachine(String machineId) {
        return withDeadline(machineId, DEFAULT_BUDGET);
    }

    /** A call for {@code machineId} whose deadline is {@code budget} from now. */
    public static TestOperationContext withDeadline(String machineId, Duration budget) {
        return new TestOperationContext(machineId, Instant.now().plus(budget));
    }

    /** Gives up on the call, as the engine does at the deadline or on shutdown. */
    public void cancel() {
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

    @Override
    public String toString() {
        return "TestOperationContext[" + machineId + ", " + operationId + (isCancelled() ? ", cancelled" : "") + "]";
    }
}
