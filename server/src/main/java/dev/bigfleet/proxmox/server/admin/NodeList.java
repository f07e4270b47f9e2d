package dev.bigfleet.proxmox.server.admin;

import java.util.List;

/** The nodes, when they were read, and the read's error if the backend could not answer. */
public record NodeList(List<NodeRow> nodes, String readAt, String error) {}
