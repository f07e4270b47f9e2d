package dev.bigfleet.proxmox.server.admin;

/**
 * A Proxmox node as the backend reports it, plus what the inventory places on it: the VMs of this
 * provider and their vCPUs (CPU use as allocation, which is what limits further clones).
 */
public record NodeRow(
        String name,
        boolean online,
        int cpuTotal,
        int vcpuAllocated,
        long memoryUsedBytes,
        long memoryTotalBytes,
        int vms) {}
