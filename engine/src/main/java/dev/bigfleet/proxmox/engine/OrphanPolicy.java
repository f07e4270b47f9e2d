package dev.bigfleet.proxmox.engine;

import java.time.Duration;

/**
 * What the reconciler does with VMs no live machine owns: after {@code grace}, destroy them (or,
 * with {@code reap} off, only log them), each destroy bounded by {@code destroyTimeout}.
 */
public record OrphanPolicy(Duration grace, boolean reap, Duration destroyTimeout) {
    public static OrphanPolicy defaults() {
        return new OrphanPolicy(Duration.ofMinutes(10), true, Duration.ofMinutes(8));
    }
}
