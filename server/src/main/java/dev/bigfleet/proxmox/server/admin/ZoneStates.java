package dev.bigfleet.proxmox.server.admin;

import java.util.Map;

/** How many machines of one zone are in each state (every state present, zeros included). */
public record ZoneStates(String zone, int total, Map<String, Integer> states) {}
