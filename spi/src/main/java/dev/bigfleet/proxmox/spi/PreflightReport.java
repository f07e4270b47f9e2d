package dev.bigfleet.proxmox.spi;

import java.util.List;
import java.util.Optional;

/**
 * What {@code preflight} found: the checks of the cluster as a whole (the API, its version, the
 * nodes, the pool) and one row per (instance type, node) pair of the offerings.
 */
public record PreflightReport(List<PreflightStep> cluster, List<PreflightRow> rows) {
    public PreflightReport {
        cluster = List.copyOf(cluster);
        rows = List.copyOf(rows);
    }

    /** Nothing failed. */
    public boolean ok() {
        return cluster.stream().noneMatch(PreflightStep::failed)
                && rows.stream().allMatch(PreflightRow::ok);
    }

    public Optional<PreflightRow> row(String instanceType, String node) {
        return rows.stream()
                .filter(r -> r.instanceType().equals(instanceType) && r.node().equals(node))
                .findFirst();
    }
}
