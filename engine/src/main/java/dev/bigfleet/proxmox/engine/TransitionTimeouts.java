package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.TransitionKind;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/** How long each kind of transition may run before the machine goes FAILED. */
public final class TransitionTimeouts {
    private final Map<TransitionKind, Duration> timeouts;

    public TransitionTimeouts(Duration create, Duration configure, Duration drain, Duration delete) {
        timeouts = new EnumMap<>(TransitionKind.class);
        timeouts.put(TransitionKind.CREATE, create);
        timeouts.put(TransitionKind.CONFIGURE, configure);
        timeouts.put(TransitionKind.DRAIN, drain);
        timeouts.put(TransitionKind.DELETE, delete);
    }

    public static TransitionTimeouts defaults() {
        return new TransitionTimeouts(
                Duration.ofMinutes(8), Duration.ofMinutes(8), Duration.ofMinutes(15), Duration.ofMinutes(8));
    }

    public Duration of(TransitionKind kind) {
        return timeouts.get(kind);
    }
}
