package dev.bigfleet.proxmox.spi;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/**
 * The substrate: everything the lifecycle engine asks of a Proxmox cluster.
 *
 * <p>Calls come from background transitions, many at once from different threads, each bounded by
 * an {@link OperationContext} whose deadline the backend honours (see there). Each transition may be
 * run again with the same arguments: after a retry of the RPC, after a provider restart, or because
 * a transient failure ({@link BackendException#isTransient()}) is retried until the deadline. Every
 * verb is therefore idempotent as described on it. The engine discards a result that arrives after
 * the transition's deadline.
 *
 * <p>Failures are {@link BackendException}s whose message becomes the machine's {@code last_error}:
 * one line, no secret. Any other exception is reported as an internal error.
 *
 * <p>Optional capabilities are default methods returning {@link Optional}, so a backend offers one
 * by overriding it and a decorator forwards it like any other method.
 */
public interface ProxmoxBackend extends AutoCloseable {
    /**
     * Creates a VM of the spec's instance type on the spec's zone (a Proxmox node) for the machine,
     * starts it and waits until its guest agent answers.
     *
     * <p>Idempotent: a create for a machine whose VM already exists adopts it (starting it if it is
     * stopped) and never clones twice; the VM found is returned.
     */
    CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException;

    /**
     * Starts the VM if it is stopped and waits for its guest agent; a running VM is left as it is.
     *
     * @throws BackendException when the VM is missing or carries another machine's id: nothing is
     *     done to a VM that is not the target's
     */
    void ensureRunning(VmTarget target, OperationContext context) throws BackendException;

    /**
     * Delivers the bootstrap blob into the guest and runs the bootstrap hook with it.
     *
     * <p>The blob is a credential: never log, persist or quote it, and remove it from the guest when
     * the hook has run, whatever its outcome. A hook that exits non-zero fails the call with a
     * message naming the exit code.
     */
    void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException;

    /**
     * Drains the Kubernetes node in the guest within the grace period; a drain that does not succeed
     * (eviction blocked, non-zero exit) fails the call. Draining a node that is already drained
     * succeeds.
     */
    void drain(DrainSpec spec, OperationContext context) throws BackendException;

    /**
     * Stops and destroys the VM. Idempotent: a VM that is already gone counts as destroyed. So does
     * one whose VMID another VM holds now (another machine's, someone else's): that VM proves the
     * target's gone, and it is left alone; the call succeeds.
     */
    void destroy(VmTarget target, OperationContext context) throws BackendException;

    /** Every VM this provider manages, with the machine id it carries. Read-only. */
    List<ManagedVm> describeManaged() throws BackendException;

    /** The cluster's nodes and their capacity. Read-only. */
    List<NodeStatus> nodes() throws BackendException;

    /**
     * Optional capability: a check that a configured machine's node joined its cluster. Without one a
     * machine is CONFIGURED as soon as its bootstrap hook succeeds.
     */
    default Optional<ReadinessGate> readiness() {
        return Optional.empty();
    }

    /**
     * Optional capability: keeping a machine's binding on its VM, so that it survives the loss of the
     * provider's state. Without one a rebuilt machine whose VM exists comes back IDLE.
     */
    default Optional<BindingRecorder> bindings() {
        return Optional.empty();
    }

    /**
     * Optional capability: whether the substrate's API is reachable now, for the {@code
     * bigfleet_proxmox_api_up} metric and the admin page. Cheap: called on every scrape.
     */
    default Optional<ApiStatus> apiStatus() {
        return Optional.empty();
    }

    /**
     * Optional capability: where an operator sees {@code vm} in the substrate's own web UI, for the
     * admin page to link each machine to its VM. Computed locally, without a call: asked for every
     * machine row the admin page shows.
     */
    default Optional<URI> webUiLink(VmTarget vm) {
        return Optional.empty();
    }

    /**
     * Optional capability: the static addresses {@code vm}'s NICs were given, each with its prefix
     * ({@code 10.20.0.12/24}), for the admin page and API to show beside the machine. Computed
     * locally, without a call; empty for a VM whose addresses come from DHCP.
     */
    default java.util.List<String> vmAddresses(VmTarget vm) {
        return java.util.List.of();
    }

    /**
     * Optional capability: why {@code vm} is out of date with the template it was cloned from (the
     * template's config changed since), or empty. Cheap: what the backend reads for it is cached.
     */
    default Optional<String> templateDrift(VmTarget vm) {
        return Optional.empty();
    }

    /** Optional capability: how many of the backend's VMs {@link #templateDrift} finds out of date. */
    default long driftedVms() {
        return 0;
    }

    /** Releases what the backend holds (threads, connections); called once, at shutdown. */
    @Override
    default void close() {}
}
