package dev.bigfleet.proxmox.server.admin;

/**
 * One operation of a machine's history: kind and outcome in lower case, times in UTC (ISO 8601), the
 * duration so far while it runs.
 */
public record OperationRow(
        String kind,
        String operationId,
        String startedAt,
        String endedAt,
        Long durationSeconds,
        String outcome,
        String error) {}
