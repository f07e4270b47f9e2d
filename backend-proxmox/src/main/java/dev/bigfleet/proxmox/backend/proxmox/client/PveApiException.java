package dev.bigfleet.proxmox.backend.proxmox.client;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A failed Proxmox API call. The message names the call and carries what Proxmox said; it never
 * contains request parameters (a file-write carries the bootstrap blob) or the token.
 */
public final class PveApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Where the call failed. */
    public enum Kind {
        /** No connection was made: the request never reached Proxmox. */
        CONNECT,
        /** The connection broke; the request may or may not have been acted on. */
        TRANSPORT,
        /** No answer within the request timeout; the request may have been acted on. */
        TIMEOUT,
        /** The server's certificate was refused. */
        TLS,
        /** Proxmox answered with an error status. */
        HTTP,
        /** Too many consecutive failures: calls fail fast for a while. */
        CIRCUIT_OPEN,
        /** A 200 answer that is not the expected JSON. */
        MALFORMED,
        /** The calling thread was interrupted (the transition was cancelled). */
        INTERRUPTED
    }

    private final String op;
    private final Kind kind;
    private final int status;
    private final String serverMessage;
    private final Map<String, String> paramErrors;
    private final boolean transientFailure;

    private PveApiException(
            String op,
            Kind kind,
            int status,
            String serverMessage,
            Map<String, String> paramErrors,
            String message,
            Throwable cause,
            boolean transientFailure) {
        super(message, cause);
        this.op = op;
        this.kind = kind;
        this.status = status;
        this.serverMessage = serverMessage;
        this.paramErrors = Map.copyOf(paramErrors);
        this.transientFailure = transientFailure;
    }

    private PveApiException(
            String op,
            Kind kind,
            int status,
            String serverMessage,
            Map<String, String> paramErrors,
            String message,
            Throwable cause) {
        this(op, kind, status, serverMessage, paramErrors, message, cause, false);
    }

    static PveApiException http(String op, int status, String serverMessage, Map<String, String> paramErrors) {
        return new PveApiException(
                op,
                Kind.HTTP,
                status,
                serverMessage,
                paramErrors,
                op + ": " + describe(status, serverMessage, paramErrors),
                null);
    }

    static PveApiException transport(String op, Kind kind, String detail, Throwable cause) {
        return new PveApiException(op, kind, 0, "", Map.of(), op + ": " + detail, cause);
    }

    static PveApiException circuitOpen(String op, Duration delay) {
        return new PveApiException(
                op,
                Kind.CIRCUIT_OPEN,
                0,
                "",
                Map.of(),
                op
                        + ": the Proxmox API is unreachable (several consecutive calls failed); failing fast for up to "
                        + delay.toSeconds() + "s",
                null,
                true);
    }

    /** This failure, marked as {@link #isTransient() transient} or not (the transport decides, knowing the call). */
    PveApiException classified(boolean isTransient) {
        if (isTransient == transientFailure) {
            return this;
        }
        PveApiException copy = new PveApiException(
                op, kind, status, serverMessage, paramErrors, getMessage(), getCause(), isTransient);
        copy.setStackTrace(getStackTrace());
        return copy;
    }

    private static String describe(int status, String serverMessage, Map<String, String> paramErrors) {
        if (status == 401) {
            return "HTTP 401: authentication failed; check --proxmox-token-id and the token secret"
                    + " (the token may be unknown, expired, or its user disabled)";
        }
        StringBuilder out = new StringBuilder("HTTP ").append(status);
        if (!serverMessage.isEmpty()) {
            out.append(": ").append(serverMessage);
        }
        if (!paramErrors.isEmpty()) {
            out.append(paramErrors.entrySet().stream()
                    .map(e -> e.getKey() + ": " + e.getValue())
                    .collect(Collectors.joining("; ", " (", ")")));
        }
        if (status == 403) {
            out.append(" (the API token lacks a privilege; see Token privileges in docs/proxmox/storage.md)");
        }
        return out.toString();
    }

    /** The bounded name of the call, e.g. {@code POST clone}. */
    public String op() {
        return op;
    }

    public Kind kind() {
        return kind;
    }

    /** The HTTP status, or 0 when no answer arrived. */
    public int status() {
        return status;
    }

    /** Proxmox's error text, trimmed; empty when there was none. */
    public String serverMessage() {
        return serverMessage;
    }

    public Map<String, String> paramErrors() {
        return paramErrors;
    }

    public boolean isStatus(int code) {
        return kind == Kind.HTTP && status == code;
    }

    /** Whether Proxmox's error text (or a parameter error) contains this, ignoring case. */
    public boolean mentions(String fragment) {
        String f = fragment.toLowerCase(Locale.ROOT);
        return serverMessage.toLowerCase(Locale.ROOT).contains(f)
                || paramErrors.values().stream()
                        .anyMatch(v -> v.toLowerCase(Locale.ROOT).contains(f));
    }

    /** Proxmox's way of saying "no such VM on that node": there is no 404. */
    public boolean vmMissing() {
        return kind == Kind.HTTP
                && status == 500
                && (mentions("does not exist") || mentions("unable to find configuration file"));
    }

    /**
     * Whether sending the same call again may succeed and can do no harm: the API could not be asked
     * (no connection, a refused certificate, the breaker open) or could not answer (overloaded, a node
     * unreachable), and the request either never reached Proxmox or may safely be repeated. A call
     * whose outcome is unknown and that must not run twice (a clone, a guest command) is never
     * transient.
     */
    public boolean isTransient() {
        return transientFailure;
    }

    /**
     * The request may have been acted on even though no answer came back: the connection failed,
     * no answer came in time, or the calling thread was interrupted while the request was on its way.
     */
    public boolean outcomeUnknown() {
        return kind == Kind.TRANSPORT || kind == Kind.TIMEOUT || kind == Kind.INTERRUPTED;
    }
}
