package dev.bigfleet.proxmox.engine;

import dev.failsafe.FailsafeException;
import java.util.Optional;
import java.util.concurrent.CompletionException;

/** What a failed engine future or Failsafe execution really failed with. */
public final class Failures {
    private Failures() {}

    /** The exception itself, out of the wrappers futures and Failsafe put around it. */
    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof FailsafeException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** The refusal a lifecycle call failed with, or empty when it failed for another reason. */
    public static Optional<RejectedException> rejection(Throwable error) {
        return unwrap(error) instanceof RejectedException rejected ? Optional.of(rejected) : Optional.empty();
    }
}
