package dev.bigfleet.proxmox.server.admin;

/** The Proxmox API as the backend last saw it; {@code since} in UTC. */
public record ApiReachability(boolean reachable, String since, String lastError, boolean breakerOpen) {}
