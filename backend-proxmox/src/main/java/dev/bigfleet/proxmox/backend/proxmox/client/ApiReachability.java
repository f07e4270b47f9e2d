package dev.bigfleet.proxmox.backend.proxmox.client;

import dev.bigfleet.proxmox.spi.ApiStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the Proxmox API answers, as the calls see it: any answer (a refusal included) makes it
 * reachable. An attempt that could not connect (or whose certificate was refused) makes it
 * unreachable at once; a broken or slow exchange only when its call gives up after the transport's
 * own retries, so one connection reset does not flip it; so does the breaker opening. Each flip is
 * logged once, with the error, so an outage reads as two lines. Cheap to read: the status is one
 * immutable value swapped on a flip.
 */
final class ApiReachability {
    private static final Logger log = LoggerFactory.getLogger(ApiReachability.class);

    private record State(boolean reachable, Instant since, Optional<String> lastError) {}

    private final Clock clock;
    private volatile State state;
    private volatile String lastUnanswered = "several consecutive calls did not reach the API";

    ApiReachability(Clock clock) {
        this.clock = clock;
        this.state = new State(true, clock.instant(), Optional.empty());
    }

    /** An attempt got an HTTP answer. */
    void answered() {
        if (state.reachable()) {
            return;
        }
        synchronized (this) {
            State s = state;
            if (!s.reachable()) {
                state = new State(true, clock.instant(), s.lastError());
                log.info(
                        "Proxmox API reachable again after {}s",
                        Math.max(0, state.since().getEpochSecond() - s.since().getEpochSecond()));
            }
        }
    }

    /** An attempt failed; returns the failure, for throwing. */
    PveApiException attemptFailed(PveApiException e) {
        if (FailureClassifier.unreachable(e)) {
            lastUnanswered = oneLine(e);
            if (e.kind() == PveApiException.Kind.CONNECT || e.kind() == PveApiException.Kind.TLS) {
                unanswered(oneLine(e));
            }
        }
        return e;
    }

    /** A call ended with this failure, after its retries. */
    void callGaveUp(PveApiException e) {
        if (FailureClassifier.unreachable(e)) {
            unanswered(oneLine(e));
        }
    }

    /** The breaker opened, on consecutive attempts the API did not answer. */
    void breakerOpen() {
        unanswered(lastUnanswered);
    }

    private static String oneLine(PveApiException e) {
        return String.valueOf(e.getMessage()).replaceAll("\\R", " ").strip();
    }

    /** The API did not answer; {@code error} is one line without secrets. */
    private void unanswered(String error) {
        synchronized (this) {
            State s = state;
            if (s.reachable()) {
                state = new State(false, clock.instant(), Optional.of(error));
                log.warn("Proxmox API unreachable: {}", error);
            } else {
                state = new State(false, s.since(), Optional.of(error));
            }
        }
    }

    ApiStatus status(boolean breakerOpen) {
        State s = state;
        return new ApiStatus(s.reachable(), s.since(), s.lastError(), breakerOpen);
    }
}
