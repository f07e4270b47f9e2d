package dev.bigfleet.proxmox.spi;

/**
 * Optional capability, offered through {@link ProxmoxBackend#readiness()}: confirms that a configured
 * machine's node has joined its cluster and is ready. When a backend offers it, a machine stays
 * CONFIGURING until {@link #awaitNodeReady} returns, and goes FAILED if it throws or the Configure
 * deadline passes first.
 */
@FunctionalInterface
public interface ReadinessGate {
    /**
     * Returns once the node of {@code target} is ready in cluster {@code clusterId}; waits no longer
     * than {@link OperationContext#deadline()}.
     *
     * @throws BackendException when the node will not become ready, or the wait was cancelled
     */
    void awaitNodeReady(VmTarget target, String clusterId, OperationContext context) throws BackendException;
}
