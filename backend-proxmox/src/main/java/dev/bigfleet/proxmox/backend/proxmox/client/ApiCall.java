package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Objects;

/**
 * One request to {@code /api2/json}.
 *
 * @param method GET, POST, PUT or DELETE
 * @param op a short, bounded name for metrics and messages (no VMIDs or node names in it)
 * @param path the encoded path below the API root, starting with {@code /}
 * @param params query parameters for GET and DELETE, the form body for POST and PUT
 * @param notYet which answers are an expected wait, counted apart from successes and errors
 */
record ApiCall(String method, String op, String path, FormParams params, CallSafety safety, NotYet notYet) {
    ApiCall {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(safety, "safety");
        Objects.requireNonNull(notYet, "notYet");
    }

    ApiCall(String method, String op, String path, FormParams params, CallSafety safety) {
        this(method, op, path, params, safety, NotYet.NEVER);
    }

    boolean paramsInQuery() {
        return method.equals("GET") || method.equals("DELETE");
    }
}
