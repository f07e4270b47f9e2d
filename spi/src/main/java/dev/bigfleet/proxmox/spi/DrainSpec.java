package dev.bigfleet.proxmox.spi;

/** What Drain asks for: evict the node's pods within {@code gracePeriodSeconds}. */
public record DrainSpec(VmTarget target, String clusterId, long gracePeriodSeconds) {}
