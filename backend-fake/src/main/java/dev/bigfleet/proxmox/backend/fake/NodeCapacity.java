package dev.bigfleet.proxmox.backend.fake;

/** The fixed size of every simulated node. */
public record NodeCapacity(long memoryBytes, int cpus) {
    private static final long GIB = 1024L * 1024 * 1024;

    /** A generously sized hypervisor, so ordinary test fleets never hit the ceiling. */
    public static final NodeCapacity DEFAULT = new NodeCapacity(512 * GIB, 128);

    public NodeCapacity {
        if (memoryBytes <= 0) {
            throw new IllegalArgumentException("node memory must be > 0, got " + memoryBytes);
        }
        if (cpus <= 0) {
            throw new IllegalArgumentException("node cpus must be > 0, got " + cpus);
        }
    }
}
