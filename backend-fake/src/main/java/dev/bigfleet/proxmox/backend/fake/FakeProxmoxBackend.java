package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ProxmoxBackend} over a {@link SimulatedCluster}. Every operation is a sequence of steps
 * (clone, start, guest-agent boot, file write, guest exec) that each take the configured latency
 * and stop as soon as the engine cancels, so timeouts, leaks and partial failures can be exercised
 * without a real cluster. Unlike the reference fake it checks that a VM carries the caller's
 * machine id before acting on it.
 *
 * <p>The bootstrap blob is never stored, logged or quoted: only its length is looked at.
 */
public final class FakeProxmoxBackend implements ProxmoxBackend {
    private static final Logger log = LoggerFactory.getLogger(FakeProxmoxBackend.class);

    static final String BOOTSTRAP_FAULT_STDERR =
            "bootstrap hook failed: injected fault (cluster " + Fault.ERROR.clusterId() + ")";
    static final String DRAIN_FAULT_STDERR = "error: cannot evict pod as it would violate the pod's disruption budget";

    private final SimulatedCluster cluster;
    private final SimulatedDelay delay;
    private final FaultInjector faults;

    public FakeProxmoxBackend(FakeSettings settings, SimulatedCluster cluster) {
        Objects.requireNonNull(settings, "settings");
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.delay = new SimulatedDelay(settings.latency());
        this.faults = new FaultInjector(settings.faults());
    }

    /** The simulated cluster, for tests that inspect it or change it behind the provider's back. */
    public SimulatedCluster cluster() {
        return cluster;
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        String what = "clone VM " + spec.instanceType().name();
        if (faults.failsCreate(spec.labels())) {
            delay.step(what, context);
            throw new BackendException(what + ": injected fault (offering label " + FaultInjector.CREATE_FAULT_LABEL
                    + "=" + FaultInjector.CREATE_FAULT_VALUE + ")");
        }
        Optional<SimulatedVm> owned = cluster.vmOwnedBy(spec.machineId());
        SimulatedVm vm;
        if (owned.isPresent()) {
            // an earlier attempt already cloned (and maybe died before starting): reuse, never clone twice
            vm = owned.get();
            log.debug("fake: adopting VM {} for machine {}", vm.hostRef(), spec.machineId());
        } else {
            delay.step(
                    what + ": clone template " + spec.instanceType().templateVmid() + " -> node " + spec.zone(),
                    context);
            vm = prefixed(what, () -> cluster.cloneFor(spec.machineId(), spec.zone(), spec.instanceType()));
            log.debug("fake: cloned VM {} for machine {}", vm.hostRef(), spec.machineId());
        }
        bringUp(what + ": start clone " + vm.hostRef(), vm, context);
        return new CreatedVm(vm.node(), vm.vmid());
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        String what = "ensure running";
        SimulatedVm vm = resolve(what, target);
        bringUp(what + ": " + vm.hostRef(), vm, context);
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        SimulatedVm vm = requireRunning("configure", resolve("configure", spec.target()));
        String ref = vm.hostRef();
        Fault fault = faults.forCluster(spec.clusterId()).orElse(null);
        if (fault == Fault.SLOW_OK) {
            delay.outlastDeadline(context);
            prefixed("run bootstrap on guest " + ref, () -> cluster.join(vm.vmid(), spec.clusterId()));
            log.debug("fake: VM {} bootstrapped into cluster {} after its deadline", ref, spec.clusterId());
            return;
        }
        delay.step("write bootstrap to guest " + ref, context);
        log.debug("fake: wrote {} bootstrap bytes into VM {}", spec.bootstrapBlob().length, ref);
        String exec = "run bootstrap on guest " + ref;
        if (fault == Fault.TIMEOUT) {
            throw delay.hang(exec + ": guest command did not exit", context);
        }
        delay.step(exec, context);
        GuestExecResult result =
                fault == Fault.ERROR ? new GuestExecResult(1, BOOTSTRAP_FAULT_STDERR) : GuestExecResult.SUCCESS;
        if (!result.succeeded()) {
            // the hook ran: the node may be joining its cluster
            throw BackendException.afterBootstrapStarted(exec + ": " + result.failureText(), null);
        }
        prefixed(exec, () -> cluster.join(vm.vmid(), spec.clusterId()));
        log.debug("fake: VM {} bootstrapped into cluster {}", ref, spec.clusterId());
    }

    /** The node joins its cluster a step after the bootstrap; a fault can keep it from ever joining. */
    @Override
    public Optional<ReadinessGate> readiness() {
        return Optional.of(this::awaitNodeReady);
    }

    void awaitNodeReady(VmTarget target, String clusterId, OperationContext context) throws BackendException {
        String what = "readiness";
        SimulatedVm vm = requireRunning(what, resolve(what, target));
        String wait = what + ": wait for node of VM " + vm.hostRef() + " to be Ready in cluster " + clusterId;
        if (faults.is(Fault.READINESS_BLOCK, clusterId)) {
            throw delay.hang(wait, context);
        }
        delay.step(wait, context);
        SimulatedVm now = resolve(what, target);
        if (!now.clusterId().equals(Optional.of(clusterId))) {
            throw new BackendException(what + ": VM " + now.hostRef() + " has not joined cluster \"" + clusterId + "\""
                    + now.clusterId().map(c -> " (it is in \"" + c + "\")").orElse(""));
        }
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        SimulatedVm vm = requireRunning("drain", resolve("drain", spec.target()));
        String exec = "run drain on guest " + vm.hostRef();
        delay.step(exec, context);
        String joined = vm.clusterId().orElse(spec.clusterId());
        boolean injected = faults.failsDrain(vm.vmid(), spec.clusterId())
                || (!joined.equals(spec.clusterId()) && faults.failsDrain(vm.vmid(), joined));
        GuestExecResult result = injected
                ? new GuestExecResult(1, DRAIN_FAULT_STDERR + " (injected fault, cluster " + joined + ")")
                : GuestExecResult.SUCCESS;
        if (!result.succeeded()) {
            throw new BackendException(exec + ": " + result.failureText());
        }
        prefixed(exec, () -> cluster.leave(vm.vmid()));
        log.debug("fake: VM {} drained out of cluster {}", vm.hostRef(), spec.clusterId());
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) throws BackendException {
        String what = "delete";
        Optional<SimulatedVm> present = cluster.vm(target.vmid());
        if (present.isEmpty()) {
            log.debug("fake: VM {} already gone", target.hostRef());
            return;
        }
        if (!present.get().machineId().equals(target.machineId())) {
            // the VMID is another machine's now: the target's VM is gone, and that one is left alone
            log.debug(
                    "fake: VM {} of machine {} is gone; its VMID now carries machine {}",
                    target.hostRef(),
                    target.machineId(),
                    present.get().machineId());
            return;
        }
        SimulatedVm vm = present.get();
        if (vm.running()) {
            delay.step(what + ": stop VM " + vm.hostRef(), context);
            if (cluster.stop(vm.vmid()).isEmpty()) {
                return; // destroyed concurrently: the goal is reached
            }
        }
        delay.step(what + ": destroy VM " + vm.hostRef(), context);
        cluster.remove(vm.vmid());
        log.debug("fake: destroyed VM {} of machine {}", vm.hostRef(), vm.machineId());
    }

    @Override
    public List<ManagedVm> describeManaged() {
        return cluster.vms().stream().map(SimulatedVm::toManaged).toList();
    }

    @Override
    public List<NodeStatus> nodes() {
        return cluster.nodeStatuses();
    }

    /** Starts a stopped VM and waits for its guest agent; a running VM's agent already answers. */
    private void bringUp(String what, SimulatedVm vm, OperationContext context) throws BackendException {
        if (vm.running()) {
            return;
        }
        delay.step(what, context);
        prefixed(what, () -> cluster.start(vm.vmid()));
        delay.step(what + ": wait for guest agent", context);
    }

    /** Looks the VM up by VMID (so a migrated VM is still found) and checks that it is the machine's. */
    private SimulatedVm resolve(String what, VmTarget target) throws BackendException {
        SimulatedVm vm = cluster.vm(target.vmid())
                .orElseThrow(() -> new BackendException(what + ": VM " + target.hostRef() + " does not exist"));
        return owned(what, target, vm);
    }

    private static SimulatedVm owned(String what, VmTarget target, SimulatedVm vm) throws BackendException {
        if (!vm.machineId().equals(target.machineId())) {
            throw new BackendException(what + ": VM " + vm.hostRef() + " carries machine id \"" + vm.machineId()
                    + "\", not \"" + target.machineId() + "\"; refusing to act on it");
        }
        return vm;
    }

    private static SimulatedVm requireRunning(String what, SimulatedVm vm) throws BackendException {
        if (!vm.running()) {
            throw new BackendException(what + ": VM " + vm.hostRef() + " is stopped");
        }
        return vm;
    }

    private static <T> T prefixed(String what, ClusterCall<T> call) throws BackendException {
        try {
            return call.run();
        } catch (BackendException e) {
            throw new BackendException(what + ": " + e.getMessage(), e);
        }
    }

    @FunctionalInterface
    private interface ClusterCall<T> {
        T run() throws BackendException;
    }
}
