package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the API calls a backend reports, by op. */
final class CountingRecorder implements ApiCallRecorder {
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final AtomicInteger failures = new AtomicInteger();

    @Override
    public void record(String op, boolean success, Duration duration) {
        calls.computeIfAbsent(op, o -> new AtomicInteger()).incrementAndGet();
        if (!success) {
            failures.incrementAndGet();
        }
    }

    int total() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    int of(String op) {
        AtomicInteger n = calls.get(op);
        return n == null ? 0 : n.get();
    }

    int failures() {
        return failures.get();
    }

    Map<String, Integer> snapshot() {
        Map<String, Integer> out = new TreeMap<>();
        calls.forEach((k, v) -> out.put(k, v.get()));
        return out;
    }

    void reset() {
        calls.clear();
        failures.set(0);
    }
}
