package dev.bigfleet.proxmox.conformance.target;

/**
 * Starts a provider for the suite when no endpoint is named. A provider's own build registers one
 * in {@code META-INF/services/dev.bigfleet.proxmox.conformance.target.ConformanceServerLauncher} (test
 * scope) so {@code mvn verify} runs the suite against the real server on loopback.
 */
public interface ConformanceServerLauncher {
    /** Starts a provider for {@code profile}, or returns null when this launcher cannot. */
    LaunchedServer start(Profile profile) throws Exception;
}
