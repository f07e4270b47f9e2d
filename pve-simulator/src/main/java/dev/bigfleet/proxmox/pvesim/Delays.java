package dev.bigfleet.proxmox.pvesim;

import java.time.Duration;

/**
 * Every simulated delay as a multiple of the configured latency unit. The ratios follow real
 * clusters loosely: a full clone copies its disks (3 units per 32 GiB), a linked clone only makes
 * a thin snapshot (half a unit), a start takes one unit, and the guest OS needs a while after QEMU
 * is up before its agent answers.
 */
final class Delays {
    private final Duration unit;

    Delays(Duration unit) {
        this.unit = unit;
    }

    Duration task(TaskKind kind) {
        switch (kind) {
            case CLONE:
                return times(3.0);
            case START:
            case SHUTDOWN:
            case DESTROY:
                return times(1.0);
            case STOP:
                return times(0.5);
            default:
                return times(0.2);
        }
    }

    /** A clone: a full one in proportion to the bytes it copies (at least a unit), a linked one at once. */
    Duration clone(boolean full, long copiedBytes) {
        if (!full) {
            return times(0.5 + 3.0 * copiedBytes / (32.0 * (1L << 30)));
        }
        return times(Math.max(1.0, 3.0 * copiedBytes / (32.0 * (1L << 30))));
    }

    /** From the end of the start task until the guest agent answers. */
    Duration agentBoot() {
        return times(5.0);
    }

    private Duration times(double factor) {
        return Duration.ofNanos((long) (unit.toNanos() * factor));
    }
}
