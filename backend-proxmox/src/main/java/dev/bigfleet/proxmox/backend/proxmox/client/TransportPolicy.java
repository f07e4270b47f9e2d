package dev.bigfleet.proxmox.backend.proxmox.client;

import java.time.Duration;

/**
 * Timeouts, retries and the circuit breaker of the API client.
 *
 * @param requestTimeout how long one HTTP exchange may take (Proxmox delays 401s by ~3 s)
 * @param connectTimeout how long opening a connection may take
 * @param maxRetries attempts after the first, for transient failures
 * @param backoffMin first delay between attempts; doubles up to {@code backoffMax}, with jitter
 * @param maxRetryTime total time one call may spend retrying
 * @param breakerThreshold consecutive "unreachable" failures that open the circuit
 * @param breakerDelay how long an open circuit fails calls fast before letting one through
 */
public record TransportPolicy(
        Duration requestTimeout,
        Duration connectTimeout,
        int maxRetries,
        Duration backoffMin,
        Duration backoffMax,
        Duration maxRetryTime,
        int breakerThreshold,
        Duration breakerDelay) {

    public static TransportPolicy defaults() {
        return new TransportPolicy(
                Duration.ofSeconds(60),
                Duration.ofSeconds(10),
                4,
                Duration.ofMillis(250),
                Duration.ofSeconds(4),
                Duration.ofSeconds(45),
                8,
                Duration.ofSeconds(10));
    }

    public TransportPolicy withRequestTimeout(Duration timeout) {
        return new TransportPolicy(
                timeout,
                connectTimeout,
                maxRetries,
                backoffMin,
                backoffMax,
                maxRetryTime,
                breakerThreshold,
                breakerDelay);
    }

    public TransportPolicy withBreaker(int threshold, Duration delay) {
        return new TransportPolicy(
                requestTimeout, connectTimeout, maxRetries, backoffMin, backoffMax, maxRetryTime, threshold, delay);
    }
}
