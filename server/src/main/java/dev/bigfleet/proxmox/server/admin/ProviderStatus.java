package dev.bigfleet.proxmox.server.admin;

/**
 * The page header: which provider and version, up since when, on which backend, whether its API is
 * reachable (null when the backend does not report it), when a reconcile last succeeded, and how many
 * FAILED machines need an operator. Times in UTC (ISO 8601).
 *
 * @param reconcileIntervalSeconds null when the reconcile loop is off
 * @param rebuild what the last startup rebuilt from the cluster; null when nothing was
 */
public record ProviderStatus(
        String provider,
        String backend,
        String version,
        String startedAt,
        String now,
        long uptimeSeconds,
        ApiReachability api,
        String lastReconcileSuccess,
        Long reconcileIntervalSeconds,
        int needsAttention,
        RebuildView rebuild) {}
