package dev.bigfleet.proxmox.spi;

/** One Proxmox node: whether it is online and its memory and CPU capacity. */
public record NodeStatus(String name, boolean online, long maxMemoryBytes, long usedMemoryBytes, int maxCpu) {}
