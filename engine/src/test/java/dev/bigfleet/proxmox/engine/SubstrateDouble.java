package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A substrate that keeps VMs by machine id and whose calls a test scripts: fail definitely, fail
 * transiently a number of times, fail a bootstrap before or after its hook started. It records the
 * order of every drain and destroy.
 */
final class SubstrateDouble implements ProxmoxBackend {
    private final Map<String, CreatedVm> vms = new ConcurrentHashMap<>();
    private final AtomicLong nextVmid = new AtomicLong(100);
    private final Map<String, AtomicInteger> transientCreates = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failingDrains = new ConcurrentHashMap<>();
    private final Map<String, Boolean> failingBootstraps = new ConcurrentHashMap<>();
    private final Map<String, Boolean> failingCreates = new ConcurrentHashMap<>();
    private final Map<String, Boolean> leaveVmOnFailedCreate = new ConcurrentHashMap<>();
    final AtomicInteger clones = new AtomicInteger();
    /** "drain m", "destroy m": what happened to which machine's VM, in order. */
    final List<String> actions = new CopyOnWriteArrayList<>();

    void createFailsTransiently(String machineId, int times) {
        transientCreates.put(machineId, new AtomicInteger(times));
    }

    /** Creates fail definitely; with {@code leaveVm} the clone is left behind, as a crashed create would. */
    void createFails(String machineId, boolean leaveVm) {
        failingCreates.put(machineId, true);
        leaveVmOnFailedCreate.put(machineId, leaveVm);
    }

    void bootstrapFails(String machineId, boolean hookStarted) {
        failingBootstraps.put(machineId, hookStarted);
    }

    void drainFails(String machineId, int times) {
        failingDrains.put(machineId, new AtomicInteger(times));
    }

    boolean holdsVm(String machineId) {
        return vms.containsKey(machineId);
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        AtomicInteger transients = transientCreates.get(spec.machineId());
        if (transients != null && transients.getAndDecrement() > 0) {
            throw BackendException.transientFailure("the API is unreachable (scripted)", null);
        }
        CreatedVm vm = vms.computeIfAbsent(spec.machineId(), id -> {
            clones.incrementAndGet();
            return new CreatedVm(spec.zone(), nextVmid.incrementAndGet());
        });
        if (failingCreates.getOrDefault(spec.machineId(), false)) {
            if (!leaveVmOnFailedCreate.getOrDefault(spec.machineId(), false)) {
                vms.remove(spec.machineId());
            }
            throw new BackendException("clone failed (scripted)");
        }
        return vm;
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        if (!vms.containsKey(target.machineId())) {
            throw new BackendException("VM " + target.hostRef() + " is missing");
        }
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        Boolean hookStarted = failingBootstraps.get(spec.target().machineId());
        if (hookStarted == null) {
            return;
        }
        if (hookStarted) {
            throw BackendException.afterBootstrapStarted("bootstrap hook exited with code 1 (scripted)", null);
        }
        throw new BackendException("writing the bootstrap file failed (scripted)");
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        actions.add("drain " + spec.target().machineId());
        AtomicInteger failures = failingDrains.get(spec.target().machineId());
        if (failures != null && failures.getAndDecrement() > 0) {
            throw new BackendException("cannot evict pod as it would violate the pod's disruption budget (scripted)");
        }
    }

    @Override
    public void destroy(VmTarget target, OperationContext context) {
        actions.add("destroy " + target.machineId());
        vms.remove(target.machineId());
    }

    @Override
    public List<ManagedVm> describeManaged() {
        List<ManagedVm> out = new ArrayList<>();
        vms.forEach((id, vm) -> out.add(new ManagedVm(Optional.of(id), vm.node(), vm.vmid(), true)));
        return out;
    }

    @Override
    public List<NodeStatus> nodes() {
        return List.of();
    }
}
