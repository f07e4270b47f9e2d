package dev.bigfleet.proxmox.server.admin;

/**
 * A Proxmox node as the backend reports it, plus what the inventory places on it: the VMs of this
 * provider and their vCPUs (CPU use as allocation, which is what limits further clones), and the
 * space of the storage its clones are written to (0 of 0 when the backend does not report it).
 *
 * @param status {@code online} or {@code offline} as last read, {@code unknown} while the node list or
 *     the Proxmox API cannot be read (the last answer may be stale)
 * @param online what the last read of the node list said
 * @param schedulable whether it takes a new VM (online, not in maintenance, in a quorate cluster)
 * @param unschedulableReason why it does not, or null
 */
public record NodeRow(
        String name,
        String status,
        boolean online,
        int cpuTotal,
        int vcpuAllocated,
        long memoryUsedBytes,
        long memoryTotalBytes,
        long storageUsedBytes,
        long storageTotalBytes,
        int vms,
        boolean schedulable,
        String unschedulableReason) {}
