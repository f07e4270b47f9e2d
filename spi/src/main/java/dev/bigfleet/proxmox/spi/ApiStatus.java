package dev.bigfleet.proxmox.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether the substrate's API answers, as a backend last saw it: reachable or not, since when, the
 * error that made it unreachable, and whether the backend's circuit breaker is failing calls fast.
 *
 * @param reachable whether the last calls reached the API (a refusal such as 404 still counts as reached)
 * @param since when it became reachable or unreachable
 * @param lastError the error of the last call that did not reach it, one line, no secret
 * @param breakerOpen whether calls are being failed fast without being sent
 */
public record ApiStatus(boolean reachable, Instant since, Optional<String> lastError, boolean breakerOpen) {
    public ApiStatus {
        Objects.requireNonNull(since, "since");
        Objects.requireNonNull(lastError, "lastError");
    }
}
