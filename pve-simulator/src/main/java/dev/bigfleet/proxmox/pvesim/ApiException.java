package dev.bigfleet.proxmox.pvesim;

import java.util.Map;

/**
 * An error answer: the status, the message (without the trailing newline Proxmox adds), the
 * per-parameter errors of a 400, and whether the body stays empty (401 and 59x have none).
 */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final Map<String, String> errors;
    private final boolean emptyBody;

    ApiException(int status, String message, Map<String, String> errors, boolean emptyBody) {
        super(message, null, false, false);
        this.status = status;
        this.errors = errors == null ? Map.of() : Map.copyOf(errors);
        this.emptyBody = emptyBody;
    }

    int status() {
        return status;
    }

    Map<String, String> errors() {
        return errors;
    }

    boolean emptyBody() {
        return emptyBody;
    }
}
