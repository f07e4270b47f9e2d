package dev.bigfleet.proxmox.server.http;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Locale;

/**
 * The one shape of every error answered under {@code /api/}, whoever answers it (a resource, the
 * routing, or the HTTP server before any routing): {@code {"status": 404, "error": "not found:
 * /api/v1/nope"}}, with {@code Content-Type: application/json}. {@code status} repeats the
 * response's status code; {@code error} says what is wrong, on one line.
 */
public record ApiError(int status, String error) {
    /** Whether {@code path} (with or without its leading slash) is under {@code /api/}. */
    public static boolean covers(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        return p.equals("api") || p.startsWith("api/");
    }

    /** The error a status has when nothing more specific is known: its reason phrase, in lower case. */
    public static ApiError of(int status) {
        Response.Status known = Response.Status.fromStatusCode(status);
        String reason = known == null ? "error" : known.getReasonPhrase().toLowerCase(Locale.ROOT);
        return new ApiError(status, reason);
    }

    public static ApiError of(Response.Status status, String error) {
        return new ApiError(status.getStatusCode(), error);
    }

    /** This error as a JAX-RS response. */
    public Response toResponse() {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON)
                .entity(this)
                .build();
    }
}
