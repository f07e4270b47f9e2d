package dev.bigfleet.proxmox.server.admin;

/**
 * One offering: its configured slot count, and how many of its machines hold a VM, and how its
 * machines split into free (Speculative), used (any other state but FAILED) and failed.
 */
public record OfferingRow(
        String instanceType,
        String zone,
        String capacityType,
        int count,
        int machines,
        int holdingVm,
        int free,
        int used,
        int failed,
        double pricePerHour) {}
