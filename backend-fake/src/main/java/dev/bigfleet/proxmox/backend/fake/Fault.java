package dev.bigfleet.proxmox.backend.fake;

import java.util.Optional;

/**
 * A Configure-time fault, selected by the cluster id a caller configures a machine into. The
 * selectors are plain cluster ids so a black-box suite can trigger them over the wire; they only
 * take effect when fault mode is on.
 */
public enum Fault {
    /** The bootstrap hook exits 1 with a stderr line. */
    ERROR("fault-error"),
    /** The bootstrap hook never exits; the call blocks until the transition is cancelled. */
    TIMEOUT("fault-timeout"),
    /** The bootstrap ignores cancellation, outlives the deadline, then reports success. */
    SLOW_OK("fault-slow-ok"),
    /** Configure succeeds, but the later drain of that VM exits non-zero. */
    DRAIN_ERROR("fault-drain-error"),
    /** Configure succeeds; the first drain of that VM exits non-zero, every later one succeeds. */
    DRAIN_ERROR_ONCE("fault-drain-error-once"),
    /** Configure succeeds, but the node never becomes Ready. */
    READINESS_BLOCK("fault-readiness-block");

    private final String clusterId;

    Fault(String clusterId) {
        this.clusterId = clusterId;
    }

    /** The cluster id that selects this fault. */
    public String clusterId() {
        return clusterId;
    }

    static Optional<Fault> selectedBy(String clusterId) {
        for (Fault fault : values()) {
            if (fault.clusterId.equals(clusterId)) {
                return Optional.of(fault);
            }
        }
        return Optional.empty();
    }
}
