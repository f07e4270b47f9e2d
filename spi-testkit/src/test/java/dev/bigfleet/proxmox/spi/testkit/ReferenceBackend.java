package dev.bigfleet.proxmox.spi.testkit;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The smallest in-memory backend that keeps the SPI's contract, on one node, unless it is built
 * with {@link Defect}s: then it breaks the contract in those ways, so the test kit's own tests can
 * prove the contract tests notice.
 */
final class ReferenceBackend implements ProxmoxBackend {
    static final String NODE = "node-1";

    /** One VM; guarded by the backend's lock. */
    private static final class Vm {
        final long vmid;
        final String machineId;
        boolean running = true;
        String clusterId;
        VmBinding binding;

        Vm(long vmid, String machineId) {
            this.vmid = vmid;
            this.machineId = machineId;
        }

        String ref() {
            return NODE + "/" + vmid;
        }
    }

    private final Set<Defect> defects;
    private final Duration createDelay;
    private final ApiCallRecorder calls;
    private final Map<Long, Vm> vms = new LinkedHashMap<>();
    private final Set<Long> failingHooks = new HashSet<>();
    private final Set<Long> failingDrains = new HashSet<>();
    private long nextVmid = 100;

    ReferenceBackend(Set<Defect> defects, Duration createDelay, ApiCallRecorder calls) {
        this.defects = Set.copyOf(defects);
        this.createDelay = createDelay;
        this.calls = calls;
    }

    @Override
    public CreatedVm cloneAndStart(CloneSpec spec, OperationContext context) throws BackendException {
        record("CloneVM" + (has(Defect.NAMES_OPS_AFTER_MACHINES) ? " " + spec.machineId() : ""));
        checkCancelled(context);
        Optional<Vm> own = has(Defect.CLONES_AGAIN) ? Optional.empty() : owned(spec.machineId());
        if (own.isPresent()) {
            start(own.get());
            return new CreatedVm(NODE, own.get().vmid);
        }
        pause(createDelay, context);
        synchronized (this) {
            Vm vm = new Vm(nextVmid++, spec.machineId());
            vms.put(vm.vmid, vm);
            return new CreatedVm(NODE, vm.vmid);
        }
    }

    @Override
    public void ensureRunning(VmTarget target, OperationContext context) throws BackendException {
        record("EnsureRunning");
        checkCancelled(context);
        start(resolve("ensure running", target));
    }

    @Override
    public void applyBootstrap(BootstrapSpec spec, OperationContext context) throws BackendException {
        record("Configure");
        checkCancelled(context);
        Vm vm = resolve("configure", spec.target());
        synchronized (this) {
            if (failingHooks.contains(vm.vmid)) {
                String failure = has(Defect.HIDES_THE_EXIT_CODE) ? " failed" : " exited with code 5";
                if (has(Defect.QUOTES_THE_BLOB)) {
                    failure += " running " + new String(spec.bootstrapBlob(), StandardCharsets.UTF_8);
                }
                throw failure("configure: bootstrap hook on VM " + vm.ref() + failure);
            }
            vm.clusterId = spec.clusterId();
        }
    }

    @Override
    public Optional<ReadinessGate> readiness() {
        return Optional.of((target, clusterId, context) -> {
            record("AwaitNodeReady");
            checkCancelled(context);
            Vm vm = resolve("readiness", target);
            synchronized (this) {
                if (has(Defect.NEVER_READY) || !clusterId.equals(vm.clusterId)) {
                    throw failure("readiness: the node of VM " + vm.ref() + " is not in cluster " + clusterId);
                }
            }
        });
    }

    @Override
    public Optional<BindingRecorder> bindings() {
        return Optional.of(new BindingRecorder() {
            @Override
            public void recordBinding(VmTarget target, VmBinding binding, OperationContext context)
                    throws BackendException {
                record("RecordBinding");
                Vm vm = resolve("record binding", target);
                synchronized (ReferenceBackend.this) {
                    boolean same = vm.binding != null
                            && vm.binding.clusterId().equals(binding.clusterId())
                            && vm.binding.shardMetadata().equals(binding.shardMetadata());
                    if (!same) {
                        vm.binding = binding;
                    }
                }
            }

            @Override
            public void clearBinding(VmTarget target, OperationContext context) throws BackendException {
                record("ClearBinding");
                Vm vm = resolve("clear binding", target);
                synchronized (ReferenceBackend.this) {
                    vm.binding = null;
                }
            }
        });
    }

    @Override
    public void drain(DrainSpec spec, OperationContext context) throws BackendException {
        record("Drain");
        checkCancelled(context);
        Vm vm = resolve("drain", spec.target());
        synchronized (this) {
            if (failingDrains.contains(vm.vmid) && !has(Defect.IGNORES_A_FAILED_DRAIN)) {
                throw failure("drain: draining the node of VM " + vm.ref() + " exited with code 2");
            }
            vm.clusterId = null;
        }
    }

    @Override
    public synchronized void destroy(VmTarget target, OperationContext context) throws BackendException {
        record("DeleteVM");
        checkCancelled(context);
        if (!vms.containsKey(target.vmid())) {
            if (has(Defect.FAILS_TO_DESTROY_A_MISSING_VM)) {
                throw failure("delete: VM " + target.hostRef() + " does not exist");
            }
            return;
        }
        Vm vm = vms.get(target.vmid());
        if (!vm.machineId.equals(target.machineId())
                && !has(Defect.IGNORES_OWNERSHIP)
                && !has(Defect.FAILS_TO_DESTROY_A_VM_WHOSE_VMID_WAS_REUSED)) {
            return; // another machine's VM holds the VMID: the target's is gone, and that one stays
        }
        vms.remove(resolve("delete", target).vmid);
    }

    @Override
    public synchronized List<ManagedVm> describeManaged() {
        record("DescribeManaged");
        return vms.values().stream()
                .map(vm -> new ManagedVm(
                        Optional.of(vm.machineId), NODE, vm.vmid, vm.running, Optional.ofNullable(vm.binding)))
                .toList();
    }

    @Override
    public List<NodeStatus> nodes() {
        record("NodeStatus");
        return List.of(new NodeStatus(NODE, true, 64L << 30, 0, 16));
    }

    synchronized void stop(long vmid) {
        Optional.ofNullable(vms.get(vmid)).ifPresent(vm -> vm.running = false);
    }

    synchronized boolean isRunning(long vmid) {
        return Optional.ofNullable(vms.get(vmid)).map(vm -> vm.running).orElse(false);
    }

    synchronized boolean exists(long vmid) {
        return vms.containsKey(vmid);
    }

    synchronized void failHook(long vmid) {
        failingHooks.add(vmid);
    }

    synchronized void failDrain(long vmid) {
        failingDrains.add(vmid);
    }

    private boolean has(Defect defect) {
        return defects.contains(defect);
    }

    private synchronized Optional<Vm> owned(String machineId) {
        return vms.values().stream()
                .filter(vm -> vm.machineId.equals(machineId))
                .findFirst();
    }

    private synchronized Vm resolve(String what, VmTarget target) throws BackendException {
        Vm vm = vms.get(target.vmid());
        if (vm == null) {
            throw failure(what + ": VM " + target.hostRef() + " does not exist");
        }
        if (!vm.machineId.equals(target.machineId()) && !has(Defect.IGNORES_OWNERSHIP)) {
            throw failure(
                    what + ": VM " + vm.ref() + " is machine " + vm.machineId + "'s, not " + target.machineId() + "'s");
        }
        return vm;
    }

    private synchronized void start(Vm vm) {
        if (!has(Defect.LEAVES_STOPPED_VMS_STOPPED)) {
            vm.running = true;
        }
    }

    private BackendException failure(String message) {
        boolean severalLines = has(Defect.WRITES_MESSAGES_ON_SEVERAL_LINES);
        return new BackendException(severalLines ? message + "\n(see the log)" : message);
    }

    private void record(String op) {
        if (!has(Defect.REPORTS_NO_CALLS)) {
            calls.record(op, true, Duration.ZERO);
        }
    }

    private void checkCancelled(OperationContext context) throws BackendException {
        if (!has(Defect.IGNORES_CANCELLATION)) {
            context.checkCancelled();
        }
    }

    /** Waits in short slices; a defective backend neither checks the context nor heeds an interrupt. */
    private void pause(Duration duration, OperationContext context) throws BackendException {
        long end = System.nanoTime() + duration.toNanos();
        while (System.nanoTime() < end) {
            checkCancelled(context);
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                if (!has(Defect.IGNORES_CANCELLATION)) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
