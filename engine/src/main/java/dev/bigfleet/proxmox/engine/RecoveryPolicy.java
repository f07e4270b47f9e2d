package dev.bigfleet.proxmox.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a FAILED machine stays as it is before the provider cleans it up ({@code
 * --failed-retention}; zero keeps it FAILED for good), and the grace period a VM that may be a live
 * node gets when it is drained again without a Drain to take one from.
 */
public record RecoveryPolicy(Duration retention, long redrainGraceSeconds) {
    /** The default grace of a drain the cleanup starts on its own. */
    public static final long DEFAULT_REDRAIN_GRACE_SECONDS = 300;
    /** The longest wait between two cleanup attempts of one machine. */
    static final Duration LONGEST_BACKOFF = Duration.ofMinutes(30);

    public RecoveryPolicy {
        Objects.requireNonNull(retention, "retention");
        if (retention.isNegative()) {
            throw new IllegalArgumentException("the retention must not be negative");
        }
    }

    public static RecoveryPolicy defaults() {
        return new RecoveryPolicy(Duration.ofMinutes(30), DEFAULT_REDRAIN_GRACE_SECONDS);
    }

    /** Whether FAILED machines are cleaned up at all. */
    public boolean enabled() {
        return !retention.isZero();
    }

    /** The wait before cleanup attempt {@code attempt + 1}, after {@code attempt} failed ones: doubling, capped. */
    Duration backoff(int failedAttempts) {
        Duration first = retention.compareTo(Duration.ofMinutes(1)) < 0 ? retention : Duration.ofMinutes(1);
        if (first.compareTo(Duration.ofSeconds(1)) < 0) {
            first = Duration.ofSeconds(1);
        }
        Duration wait = first.multipliedBy(1L << Math.min(20, Math.max(0, failedAttempts - 1)));
        return wait.compareTo(LONGEST_BACKOFF) > 0 ? LONGEST_BACKOFF : wait;
    }

    /** How often to look for machines whose cleanup is due. */
    public Duration checkInterval() {
        Duration quarter = retention.dividedBy(4);
        if (quarter.compareTo(Duration.ofSeconds(1)) < 0) {
            return Duration.ofSeconds(1);
        }
        return quarter.compareTo(Duration.ofSeconds(30)) > 0 ? Duration.ofSeconds(30) : quarter;
    }
}
