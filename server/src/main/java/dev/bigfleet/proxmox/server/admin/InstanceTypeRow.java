package dev.bigfleet.proxmox.server.admin;

/** A catalog entry with its hourly price and whether that price is explicit ({@code --prices}) or synthetic. */
public record InstanceTypeRow(
        String name, int vcpu, long memoryMib, long templateVmid, double pricePerHour, String priceSource) {}
