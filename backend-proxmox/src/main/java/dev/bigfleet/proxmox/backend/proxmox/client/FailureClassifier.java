package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.List;

/**
 * Decides which failures are worth another attempt, and which ones say the cluster is unreachable
 * (what the circuit breaker counts). Proxmox reports almost every handler error as HTTP 500, so a
 * 500 is transient unless its text is one of the answers that will not change on retry.
 */
final class FailureClassifier {
    /** Lower-case fragments of 500 texts that are answers, not hiccups. */
    private static final List<String> PERMANENT = List.of(
            "does not exist",
            "unable to find configuration file",
            "already exists",
            "already running",
            "is not running",
            "no qemu guest agent configured",
            "invalid parameter",
            "can't clone",
            "destroy failed",
            "protection mode",
            "no such cluster node",
            "checksum mismatch",
            "template",
            "not supported",
            "not allowed",
            "no options specified",
            "only root",
            "unable to get any free vmid",
            "permission check failed",
            "no such task",
            "unable to parse",
            "used in ha resources",
            "guest agent command failed",
            "failed to execute",
            "unable to create vm",
            "no such pool",
            "property is not defined",
            "not implemented");

    private FailureClassifier() {}

    /** Whether the transport should send the call once more now, within its own short retry budget. */
    static boolean retryable(PveApiException e, CallSafety safety) {
        switch (e.kind()) {
            case CONNECT:
                return true;
            case TRANSPORT:
            case TIMEOUT:
                return safety == CallSafety.REPEATABLE;
            case HTTP:
                return retryableStatus(e, safety);
            default:
                return false;
        }
    }

    /**
     * Whether the failure, once the transport gave up, is worth trying again later (see {@link
     * PveApiException#isTransient()}): what {@link #retryable} retries, plus a refused certificate
     * (nothing was sent; it clears when the CA file or the cluster's certificate is brought in line)
     * and an open breaker.
     */
    static boolean transientFor(PveApiException e, CallSafety safety) {
        switch (e.kind()) {
            case TLS:
            case CIRCUIT_OPEN:
                return true;
            default:
                return retryable(e, safety);
        }
    }

    private static boolean retryableStatus(PveApiException e, CallSafety safety) {
        int s = e.status();
        if (s == 595 || s == 503) {
            // the receiving node could not forward it, or was not serving: nothing was done
            return true;
        }
        if (s == 502 || s == 504 || (s >= 596 && s <= 599)) {
            return safety == CallSafety.REPEATABLE;
        }
        if (s == 500) {
            // a guest agent command that timed out may still run in the guest: its outcome is unknown
            return !permanent(e) && !(safety == CallSafety.ONCE && e.mentions("failed - got timeout"));
        }
        return false;
    }

    private static boolean permanent(PveApiException e) {
        return PERMANENT.stream().anyMatch(e::mentions);
    }

    /**
     * Failures that mean "the API did not answer" (what the circuit breaker counts, and what makes
     * the API unreachable), as opposed to an answer that says no. A 595 or 596 is an answer: the
     * node that received the call could not reach another node.
     */
    static boolean unreachable(PveApiException e) {
        switch (e.kind()) {
            case CONNECT:
            case TRANSPORT:
            case TIMEOUT:
            case TLS:
                return true;
            case HTTP:
                return e.status() == 502 || e.status() == 503 || e.status() == 504;
            default:
                return false;
        }
    }
}
