package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.CallOutcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Keeps every API call a backend reports with its outcome (success, waiting, error). */
final class OutcomeLog implements ApiCallRecorder {
    record Call(String op, CallOutcome outcome) {}

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    @Override
    public void record(String op, boolean success, Duration duration) {
        record(op, success ? CallOutcome.SUCCESS : CallOutcome.ERROR, duration);
    }

    @Override
    public void record(String op, CallOutcome outcome, Duration duration) {
        calls.add(new Call(op, outcome));
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    List<Call> with(CallOutcome outcome) {
        return calls.stream().filter(c -> c.outcome() == outcome).toList();
    }

    void clear() {
        calls.clear();
    }
}
