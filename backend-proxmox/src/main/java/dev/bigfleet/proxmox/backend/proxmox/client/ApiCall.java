package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Objects;
import java.util.Optional;

/**
 * One request to {@code /api2/json}.
 *
 * @param method GET, POST, PUT or DELETE
 * @param op a short, bounded name for metrics and messages (no VMIDs or node names in it)
 * @param path the encoded path below the API root, starting with {@code /}
 * @param params query parameters for GET and DELETE, the form body for POST and PUT
 * @param notYet which answers are an expected wait, counted apart from successes and errors
 * @param file a file sent with the params as a {@code multipart/form-data} body (uploads); empty for
 *     every other call
 */
record ApiCall(
        String method,
        String op,
        String path,
        FormParams params,
        CallSafety safety,
        NotYet notYet,
        Optional<FilePart> file) {
    ApiCall {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(safety, "safety");
        Objects.requireNonNull(notYet, "notYet");
        Objects.requireNonNull(file, "file");
        if (file.isPresent() && !method.equals("POST")) {
            throw new IllegalArgumentException("a file is only sent in a POST's multipart body");
        }
    }

    ApiCall(String method, String op, String path, FormParams params, CallSafety safety, NotYet notYet) {
        this(method, op, path, params, safety, notYet, Optional.empty());
    }

    ApiCall(String method, String op, String path, FormParams params, CallSafety safety) {
        this(method, op, path, params, safety, NotYet.NEVER);
    }

    /** A POST whose body is {@code multipart/form-data}: the params as fields, then the file. */
    static ApiCall upload(String op, String path, FormParams params, FilePart file) {
        return new ApiCall("POST", op, path, params, CallSafety.ONCE, NotYet.NEVER, Optional.of(file));
    }

    boolean paramsInQuery() {
        return method.equals("GET") || method.equals("DELETE");
    }
}
