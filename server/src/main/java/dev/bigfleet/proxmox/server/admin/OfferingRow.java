package dev.bigfleet.proxmox.server.admin;

/**
 * One offering: its configured slot count, and how many of its machines hold a VM, are free
 * (Speculative) or failed.
 */
public record OfferingRow(
        String instanceType,
        String zone,
        String capacityType,
        int count,
        int machines,
        int holdingVm,
        int free,
        int failed,
        double pricePerHour) {}
