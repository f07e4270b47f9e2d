package dev.bigfleet.proxmox.pvesim;

/**
 * One API request the simulator answered (or dropped: status 0), for counting calls per
 * operation. {@code path} is below {@code /api2/json}, percent-decoded, without the query.
 */
public record RecordedRequest(String method, String path, String query, int status) {

    /** {@code "GET /cluster/resources"}. */
    public String call() {
        return method + " " + path;
    }
}
