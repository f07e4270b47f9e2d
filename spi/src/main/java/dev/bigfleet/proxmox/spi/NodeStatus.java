package dev.bigfleet.proxmox.spi;

/**
 * One Proxmox node: whether it is online, its memory and CPU capacity, and the space of the
 * storage its clones are written to (0 and 0 when the backend does not report storage).
 */
public record NodeStatus(
        String name,
        boolean online,
        long maxMemoryBytes,
        long usedMemoryBytes,
        int maxCpu,
        long storageTotalBytes,
        long storageUsedBytes) {

    /** A node whose storage is not reported (the constructor of backends built before storage was). */
    public NodeStatus(String name, boolean online, long maxMemoryBytes, long usedMemoryBytes, int maxCpu) {
        this(name, online, maxMemoryBytes, usedMemoryBytes, maxCpu, 0, 0);
    }
}
