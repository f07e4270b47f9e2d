package dev.bigfleet.proxmox.backend.fake;

/** The fixed size of every simulated node: memory, CPUs and the storage its VMs' disks are on. */
public record NodeCapacity(long memoryBytes, int cpus, long storageBytes) {
    private static final long GIB = 1024L * 1024 * 1024;

    /** The disk every simulated VM has. */
    public static final long DISK_BYTES = 32 * GIB;

    private static final long DEFAULT_STORAGE = 4096 * GIB;

    /** A generously sized hypervisor, so ordinary test fleets never hit the ceiling. */
    public static final NodeCapacity DEFAULT = new NodeCapacity(512 * GIB, 128, DEFAULT_STORAGE);

    /** A node with the default storage. */
    public NodeCapacity(long memoryBytes, int cpus) {
        this(memoryBytes, cpus, DEFAULT_STORAGE);
    }

    public NodeCapacity {
        if (memoryBytes <= 0) {
            throw new IllegalArgumentException("node memory must be > 0, got " + memoryBytes);
        }
        if (cpus <= 0) {
            throw new IllegalArgumentException("node cpus must be > 0, got " + cpus);
        }
    }
}
