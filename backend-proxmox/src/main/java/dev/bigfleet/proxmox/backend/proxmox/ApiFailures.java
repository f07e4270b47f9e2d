package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.spi.BackendException;

/**
 * How a failed API call becomes a {@link BackendException}: transient exactly when the call's
 * failure is ({@link PveApiException#isTransient()}: the API could not be asked or could not answer,
 * and nothing was done that a retry of the same backend call could not pick up). A failure after a
 * bootstrap hook was started is never transient, whatever failed: the hook must not run twice.
 */
final class ApiFailures {
    private ApiFailures() {}

    static BackendException wrap(String message, PveApiException cause) {
        return cause.isTransient()
                ? BackendException.transientFailure(message, cause)
                : new BackendException(message, cause);
    }

    /** Whether {@code e}, or the API failure it wraps, is transient. */
    static boolean isTransient(BackendException e) {
        if (e.bootstrapStarted()) {
            return false;
        }
        return e.isTransient() || (e.getCause() instanceof PveApiException api && api.isTransient());
    }

    /** {@code e}'s kind (transient, after the bootstrap started, or definite) with another message. */
    static BackendException sameKind(BackendException e, String message, Throwable cause) {
        if (e.bootstrapStarted()) {
            return BackendException.afterBootstrapStarted(message, cause);
        }
        return isTransient(e)
                ? BackendException.transientFailure(message, cause)
                : new BackendException(message, cause);
    }
}
