package dev.bigfleet.proxmox.spi.testkit;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/** An {@link ApiCallRecorder} that keeps every call reported to it, in order, for assertions. */
public final class ApiCallLog implements ApiCallRecorder {
    /** One reported call. */
    public record Call(String op, boolean success, Duration duration) {}

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    @Override
    public void record(String op, boolean success, Duration duration) {
        calls.add(new Call(op, success, duration));
    }

    /** Every call reported since the start or the last {@link #clear()}. */
    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** The distinct op names reported, in the order first seen. */
    public Set<String> ops() {
        return opsOf(calls);
    }

    /** The distinct op names of {@code calls}, in the order first seen. */
    public static Set<String> opsOf(List<Call> calls) {
        Set<String> ops = new LinkedHashSet<>();
        calls.forEach(c -> ops.add(c.op()));
        return ops;
    }

    public int size() {
        return calls.size();
    }

    public void clear() {
        calls.clear();
    }
}
