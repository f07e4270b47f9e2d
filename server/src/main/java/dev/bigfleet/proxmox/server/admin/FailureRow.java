package dev.bigfleet.proxmox.server.admin;

/**
 * Why a FAILED machine failed and where its cleanup stands.
 *
 * @param bound its VM may be a live node, so the cleanup drains it before destroying it
 * @param nextCleanup when the next cleanup may start; null when FAILED machines are kept
 *     ({@code --failed-retention 0})
 */
public record FailureRow(
        String kind,
        String failedAt,
        boolean bound,
        String error,
        int cleanupAttempts,
        String nextCleanup,
        boolean needsAttention) {}
