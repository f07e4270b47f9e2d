package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.api.MachineState;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each machine entered its current state, as this process saw it. A machine loaded at
 * startup counts from then: the store keeps no timestamps.
 */
public final class StateClock {
    /** The state a machine is in and since when. */
    public record Entry(MachineState state, Instant since) {}

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Clock clock;

    public StateClock(Clock clock) {
        this.clock = clock;
    }

    public Instant now() {
        return clock.instant();
    }

    /**
     * Records that {@code id} is in {@code state}; returns the entry it replaces when the state
     * changed, so the caller can time the state that ended.
     */
    Optional<Entry> enter(String id, MachineState state) {
        if (entries.putIfAbsent(id, new Entry(state, clock.instant())) == null) {
            return Optional.empty(); // a machine seen for the first time (every one, at a restart)
        }
        Entry[] left = new Entry[1];
        entries.compute(id, (k, old) -> {
            if (old != null && old.state() == state) {
                return old;
            }
            left[0] = old;
            return new Entry(state, clock.instant());
        });
        return Optional.ofNullable(left[0]);
    }

    Optional<Entry> forget(String id) {
        return Optional.ofNullable(entries.remove(id));
    }

    public Optional<Entry> of(String id) {
        return Optional.ofNullable(entries.get(id));
    }
}
