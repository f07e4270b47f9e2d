package dev.bigfleet.proxmox.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One check of a preflight row: its name ({@code template}, {@code storage}, {@code clone}, ...),
 * whether it passed, failed or was not tried, what was found (on failure in the substrate's or the
 * hook's own words, scrubbed of secrets), and how long it took when it is a step that takes time.
 */
public record PreflightStep(String name, Outcome outcome, String detail, Optional<Duration> took) {
    /** A check's result. */
    public enum Outcome {
        PASS,
        FAIL,
        /** Not tried: an earlier step failed, or it does not apply. */
        SKIP
    }

    public PreflightStep {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(took, "took");
    }

    public static PreflightStep pass(String name, String detail) {
        return new PreflightStep(name, Outcome.PASS, detail, Optional.empty());
    }

    public static PreflightStep fail(String name, String detail) {
        return new PreflightStep(name, Outcome.FAIL, detail, Optional.empty());
    }

    public static PreflightStep skip(String name, String detail) {
        return new PreflightStep(name, Outcome.SKIP, detail, Optional.empty());
    }

    /** The same result, taking {@code duration}. */
    public PreflightStep took(Duration duration) {
        return new PreflightStep(name, outcome, detail, Optional.of(duration));
    }

    public boolean failed() {
        return outcome == Outcome.FAIL;
    }
}
