package dev.bigfleet.proxmox.spi;

import java.time.Duration;

/**
 * Where a backend reports each call it makes to the substrate, so the server can export it as
 * {@code bigfleet_proxmox_api_calls_total} and {@code bigfleet_proxmox_api_duration_seconds}.
 */
public interface ApiCallRecorder {
    ApiCallRecorder NONE = (op, success, duration) -> {};

    /**
     * @param op a short, bounded name of the call (e.g. {@code CloneVM}, {@code GET /cluster/resources})
     * @param success whether the call succeeded
     */
    void record(String op, boolean success, Duration duration);
}
