package dev.bigfleet.proxmox.server.admin;

/** The read-only views the admin API serves. */
public record AdminViews(InventoryView inventory, MachineView machine, StatusView status) {}
