package dev.bigfleet.proxmox.server.admin;

import java.util.List;

/** A page of the filtered, sorted machine table; {@code total} counts every match. */
public record MachinePage(
        int total, int offset, int limit, String sort, String order, long revision, List<MachineRow> items) {}
