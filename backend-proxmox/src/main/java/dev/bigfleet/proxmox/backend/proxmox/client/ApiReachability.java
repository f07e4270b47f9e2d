package dev.bigfleet.proxmox.backend.proxmox.client;

import dev.bigfleet.proxmox.spi.ApiStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the Proxmox API answers, as the calls see it: any answer (a refusal included) makes it
 * reachable; a call that gave up because the API did not answer (after the transport's own retries)
 * makes it unreachable. Each flip is logged once, with the error, so an outage reads as two lines.
 * Cheap to read: the status is one immutable value swapped on a flip.
 */
final class ApiReachability {
    private static final Logger log = LoggerFactory.getLogger(ApiReachability.class);

    private record State(boolean reachable, Instant since, Optional<String> lastError) {}

    private final Clock clock;
    private volatile State state;

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

    /** A call gave up because the API did not answer; {@code error} is one line without secrets. */
    void unanswered(String error) {
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
