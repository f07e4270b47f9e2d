package dev.bigfleet.proxmox.spi;

/**
 * Optional backend capability: confirms that a configured machine's node has joined its cluster
 * and is ready. When a backend has it, a machine stays CONFIGURING until this returns.
 */
public interface ReadinessGate {
    void awaitNodeReady(VmTarget target, String clusterId, OperationContext context) throws BackendException;
}
