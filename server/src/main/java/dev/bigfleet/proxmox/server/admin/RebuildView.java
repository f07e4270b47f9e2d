package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.engine.ClusterRebuild;
import java.util.List;

/**
 * What the last startup rebuilt from the cluster, for the admin page: when, and each machine's
 * decision (what the store had, what it is now, why).
 */
public record RebuildView(String at, List<Decision> decisions) {
    /** One machine: {@code as} is idle, configured, failed (its cleanup now drains first) or kept. */
    public record Decision(String machineId, String host, String was, String as, String why) {}

    static RebuildView of(ClusterRebuild.Report report) {
        return new RebuildView(
                report.at().toString(),
                report.decisions().stream()
                        .map(d -> new Decision(d.machineId(), d.host(), d.was(), d.as(), d.why()))
                        .toList());
    }
}
