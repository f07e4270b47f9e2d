package dev.bigfleet.proxmox.pvesim;

import java.util.Map;

/**
 * An error answer: the status, the message (without the trailing newline Proxmox adds), the
 * per-parameter errors of a 400, and whether the body stays empty (401 and 59x have none) or is the
 * message as plain text (errors pveproxy itself answers before any API handler runs).
 */
final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final Map<String, String> errors;
    private final boolean emptyBody;
    private final boolean plainText;

    ApiException(int status, String message, Map<String, String> errors, boolean emptyBody) {
        this(status, message, errors, emptyBody, false);
    }

    private ApiException(int status, String message, Map<String, String> errors, boolean emptyBody, boolean plainText) {
        super(message, null, false, false);
        this.status = status;
        this.errors = errors == null ? Map.of() : Map.copyOf(errors);
        this.emptyBody = emptyBody;
        this.plainText = plainText;
    }

    /** An answer whose body is {@code message} as plain text. */
    static ApiException plainText(int status, String message) {
        return new ApiException(status, message, null, false, true);
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

    boolean plainText() {
        return plainText;
    }
}
