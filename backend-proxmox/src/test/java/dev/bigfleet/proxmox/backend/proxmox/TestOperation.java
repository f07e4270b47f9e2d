package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/** A transition's bounds for a test: a deadline, never cancelled, a fresh operation id each. */
record TestOperation(String machineId, String operationId, Instant deadline) implements OperationContext {
    private static final AtomicInteger SEQ = new AtomicInteger();

    static TestOperation of(String machineId) {
        return of(machineId, Duration.ofSeconds(60));
    }

    static TestOperation of(String machineId, Duration budget) {
        return new TestOperation(machineId, "op-" + SEQ.incrementAndGet(), Instant.now().plus(budget));
    }

    @Override
    public boolean isCancelled() {
        return false;
    }
}
