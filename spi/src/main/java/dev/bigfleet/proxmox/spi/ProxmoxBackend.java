package dev.bigfleet.proxmox.spi;

import java.util.List;

/**
 * The substrate: everything the lifecycle engine asks of a Proxmox cluster. Calls come from
 * background transitions, each bounded by an {@link OperationContext} whose deadline the backend
 * should honour; the engine discards any result that arrives after it.
 */
public interface ProxmoxBackend extends AutoCloseable {
    /** Clones the type's template into the zone's node (or adopts this machine's VM), starts it. */
    CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException;

    /** Starts the VM if it is stopped and waits for its guest agent. */
    void ensureRunning(VmTarget target, OperationContext context) throws BackendException;

    /** Delivers the bootstrap blob into the guest and runs the bootstrap hook. */
    void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException;

    /** Drains the Kubernetes node in the guest within the grace period. */
    void drain(DrainSpec spec, OperationContext context) throws BackendException;

    /** Stops and destroys the VM; a VM that is already gone counts as destroyed. */
    void destroy(VmTarget target, OperationContext context) throws BackendException;

    /** Every VM this provider manages, with the machine id it carries. */
    List<ManagedVm> describeManaged() throws BackendException;

    /** The cluster's nodes and their capacity. */
    List<NodeStatus> nodes() throws BackendException;

    @Override
    default void close() {}
}
