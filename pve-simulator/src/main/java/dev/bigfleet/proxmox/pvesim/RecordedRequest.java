package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One API request the simulator answered (or dropped: status 0), for counting calls per
 * operation. {@code path} is below {@code /api2/json}, percent-decoded, without the query; {@code
 * params} are the parameters the client sent in the query and the body (an upload's form fields
 * without the file), each name with its values in order, empty when the body could not be read.
 */
public record RecordedRequest(String method, String path, String query, int status, Map<String, List<String>> params) {

    public RecordedRequest {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        params.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        params = java.util.Collections.unmodifiableMap(copy);
    }

    /** A request whose parameters were not recorded. */
    public RecordedRequest(String method, String path, String query, int status) {
        this(method, path, query, status, Map.of());
    }

    /** {@code "GET /cluster/resources"}. */
    public String call() {
        return method + " " + path;
    }
}
