package dev.bigfleet.proxmox.spi;

/**
 * Optional capability, offered through {@link ProxmoxBackend#bindings()}: keeps a machine's binding
 * on its VM, where {@link ProxmoxBackend#describeManaged()} reports it back (as {@link
 * ManagedVm#binding()}), so that a provider whose state was lost or restored from an older copy
 * rebuilds a configured machine as CONFIGURED rather than as free capacity.
 *
 * <p>The engine records the binding before it delivers the bootstrap blob (a node that may have
 * joined is never reported unbound) and clears it once a Drain succeeded. Both are idempotent and
 * retried on a transient failure like any other backend call.
 */
public interface BindingRecorder {
    /**
     * Keeps {@code binding} on the VM of {@code target}, replacing any earlier one.
     *
     * @throws BackendException when the VM is missing or carries another machine's id: nothing is
     *     written to a VM that is not the target's
     */
    void recordBinding(VmTarget target, VmBinding binding, OperationContext context) throws BackendException;

    /** Removes the binding from the VM of {@code target}; a VM without one is left as it is. */
    void clearBinding(VmTarget target, OperationContext context) throws BackendException;
}
