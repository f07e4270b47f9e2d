package dev.bigfleet.proxmox.spi;

import java.time.Duration;

/**
 * Where a backend reports each call it makes to the substrate, so the server can export it as
 * {@code bigfleet_proxmox_api_calls_total} and {@code bigfleet_proxmox_api_duration_seconds}.
 *
 * <p>What to report: one record per request sent to the substrate (each HTTP request, each retry
 * of one), or, for a backend with no wire of its own, one per SPI call. {@code op} must come from a
 * small fixed set (an HTTP method and path template such as {@code GET /cluster/resources}, never a
 * path with a VMID or a machine id in it), because every distinct value becomes a metric series.
 * Report the call whether it succeeded or not, with the time it took; an expected "not yet" (a task
 * still running, a guest agent still booting) is {@link CallOutcome#WAITING}, not an error. Calls are
 * made from many threads at once; the recorder is thread-safe and quick.
 */
@FunctionalInterface
public interface ApiCallRecorder {
    /** Records nothing. */
    ApiCallRecorder NONE = (op, success, duration) -> {};

    /**
     * @param op a short, bounded name of the call (e.g. {@code CloneVM}, {@code GET /cluster/resources})
     * @param success whether the call succeeded
     * @param duration how long it took
     */
    void record(String op, boolean success, Duration duration);

    /** Records a call with its {@link CallOutcome}; a recorder that only counts success sees waiting as one. */
    default void record(String op, CallOutcome outcome, Duration duration) {
        record(op, outcome != CallOutcome.ERROR, duration);
    }

    /**
     * Announces an {@code op} this backend will report, so its series are exported at zero from the
     * start (rates then work at once). Optional: an op reported without it appears with its first
     * call. Only the selected backend's ops are ever exported.
     */
    default void declare(String op) {}
}
