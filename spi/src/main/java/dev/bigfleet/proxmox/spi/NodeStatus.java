package dev.bigfleet.proxmox.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * One Proxmox node: whether it is online, its memory and CPU capacity, the space of the storage its
 * clones are written to (0 and 0 when the backend does not report storage), and why it takes no new
 * VM now ({@code unschedulable}: offline, in maintenance, no quorum; empty when it may take one or
 * the backend does not say).
 */
public record NodeStatus(
        String name,
        boolean online,
        long maxMemoryBytes,
        long usedMemoryBytes,
        int maxCpu,
        long storageTotalBytes,
        long storageUsedBytes,
        Optional<String> unschedulable) {

    public NodeStatus {
        Objects.requireNonNull(unschedulable, "unschedulable");
    }

    /** A node whose schedulability is not reported apart from being online. */
    public NodeStatus(
            String name,
            boolean online,
            long maxMemoryBytes,
            long usedMemoryBytes,
            int maxCpu,
            long storageTotalBytes,
            long storageUsedBytes) {
        this(
                name,
                online,
                maxMemoryBytes,
                usedMemoryBytes,
                maxCpu,
                storageTotalBytes,
                storageUsedBytes,
                online ? Optional.empty() : Optional.of("it is offline"));
    }

    /** Whether it may take a new VM. */
    public boolean schedulable() {
        return unschedulable.isEmpty();
    }

    /** A node whose storage is not reported (the constructor of backends built before storage was). */
    public NodeStatus(String name, boolean online, long maxMemoryBytes, long usedMemoryBytes, int maxCpu) {
        this(name, online, maxMemoryBytes, usedMemoryBytes, maxCpu, 0, 0);
    }
}
