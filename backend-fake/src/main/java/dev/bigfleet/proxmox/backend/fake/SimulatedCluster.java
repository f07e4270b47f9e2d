package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.NodeStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The in-memory state of a simulated Proxmox cluster: its nodes and its VMs keyed by VMID, with an
 * index from machine id to VM. Every method is atomic; callers do their (slow) simulated waiting
 * outside, so the lock is only ever held for map updates.
 *
 * <p>VMIDs are handed out from {@value #FIRST_VMID} upwards and never reused, so a VMID always names
 * the same VM (or none) and a VM's machine id never changes.
 */
public final class SimulatedCluster {
    public static final long FIRST_VMID = 101;

    private final List<String> nodeNames;
    private final NodeCapacity capacity;
    private final boolean enforceMemory;

    private final Map<Long, SimulatedVm> vms = new HashMap<>();
    private final Map<String, Long> vmidByMachine = new HashMap<>();
    // kept incrementally so node status stays O(nodes) however many VMs there are
    private final Map<String, Long> runningMemoryByNode = new HashMap<>();
    private final Map<String, Integer> vmsByNode = new HashMap<>();
    private long nextVmid = FIRST_VMID;

    /**
     * @param nodeNames the cluster's nodes, in reporting order; duplicates are dropped
     * @param capacity the size of every node
     * @param enforceMemory whether a start is refused when the node's running VMs would exceed its
     *     memory. Off, memory is only accounted, as Proxmox itself allows overcommit.
     */
    public SimulatedCluster(Collection<String> nodeNames, NodeCapacity capacity, boolean enforceMemory) {
        this.nodeNames = List.copyOf(new LinkedHashSet<>(nodeNames));
        this.capacity = Objects.requireNonNull(capacity, "capacity");
        this.enforceMemory = enforceMemory;
    }

    /** A cluster of default-sized nodes that accounts memory but never refuses a start. */
    public SimulatedCluster(Collection<String> nodeNames) {
        this(nodeNames, NodeCapacity.DEFAULT, false);
    }

    public List<String> nodeNames() {
        return nodeNames;
    }

    public synchronized Optional<SimulatedVm> vm(long vmid) {
        return Optional.ofNullable(vms.get(vmid));
    }

    public synchronized Optional<SimulatedVm> vmOwnedBy(String machineId) {
        Long vmid = vmidByMachine.get(machineId);
        return vmid == null ? Optional.empty() : Optional.ofNullable(vms.get(vmid));
    }

    /** Every VM, by VMID. */
    public synchronized List<SimulatedVm> vms() {
        List<SimulatedVm> all = new ArrayList<>(vms.values());
        all.sort(Comparator.comparingLong(SimulatedVm::vmid));
        return all;
    }

    /**
     * Every node with its capacity; used memory is what its running VMs take, used storage a disk of
     * {@link NodeCapacity#DISK_BYTES} per VM on it.
     */
    public synchronized List<NodeStatus> nodeStatuses() {
        List<NodeStatus> statuses = new ArrayList<>(nodeNames.size());
        for (String node : nodeNames) {
            statuses.add(new NodeStatus(
                    node,
                    true,
                    capacity.memoryBytes(),
                    usedMemory(node),
                    capacity.cpus(),
                    capacity.storageBytes(),
                    vmsByNode.getOrDefault(node, 0) * NodeCapacity.DISK_BYTES));
        }
        return statuses;
    }

    /**
     * Finishes a clone task: a new, stopped VM for {@code machineId} on {@code node}, or the VM the
     * machine already owns, so two racing clones for one machine never produce two VMs.
     */
    synchronized SimulatedVm cloneFor(String machineId, String node, InstanceType type) throws BackendException {
        Long owned = vmidByMachine.get(machineId);
        if (owned != null) {
            return vms.get(owned);
        }
        if (!nodeNames.contains(node)) {
            throw new BackendException(
                    "node \"" + node + "\" is not part of the cluster (nodes: " + String.join(", ", nodeNames) + ")");
        }
        long vmid = nextVmid++;
        SimulatedVm vm = new SimulatedVm(
                vmid,
                node,
                machineId,
                type.name(),
                type.vcpu(),
                type.memoryMib(),
                PowerState.STOPPED,
                Optional.empty());
        put(vm);
        vmidByMachine.put(machineId, vmid);
        return vm;
    }

    /** Starts a VM (a running one stays as it is), refusing when its node lacks memory and that is enforced. */
    synchronized SimulatedVm start(long vmid) throws BackendException {
        SimulatedVm vm = require(vmid);
        if (vm.running()) {
            return vm;
        }
        if (enforceMemory) {
            long free = capacity.memoryBytes() - usedMemory(vm.node());
            if (vm.memoryBytes() > free) {
                throw new BackendException("start VM " + vm.hostRef() + ": not enough memory on node " + vm.node()
                        + " (needs " + vm.memoryMib() + " MiB, " + Math.max(0, free) / (1024 * 1024)
                        + " MiB free)");
            }
        }
        return put(vm.withPower(PowerState.RUNNING));
    }

    /** Hard-stops a VM; also the hook tests use to simulate a VM shut down behind the provider's back. */
    public synchronized Optional<SimulatedVm> stop(long vmid) {
        SimulatedVm vm = vms.get(vmid);
        return vm == null ? Optional.empty() : Optional.of(put(vm.withPower(PowerState.STOPPED)));
    }

    /** Records that the guest joined {@code clusterId}; the guest must be up to have run its hook. */
    synchronized SimulatedVm join(long vmid, String clusterId) throws BackendException {
        SimulatedVm vm = requireRunning(vmid);
        return put(vm.withClusterId(Optional.of(clusterId)));
    }

    /** Records that the guest's node was drained out of its cluster. */
    synchronized SimulatedVm leave(long vmid) throws BackendException {
        SimulatedVm vm = requireRunning(vmid);
        return put(vm.withClusterId(Optional.empty()));
    }

    /** Destroys a VM, freeing its memory and its machine's index entry; false when it was already gone. */
    synchronized boolean remove(long vmid) {
        SimulatedVm vm = vms.remove(vmid);
        if (vm == null) {
            return false;
        }
        account(vm, -1);
        vmidByMachine.remove(vm.machineId(), vmid);
        return true;
    }

    private SimulatedVm require(long vmid) throws BackendException {
        SimulatedVm vm = vms.get(vmid);
        if (vm == null) {
            throw new BackendException("VM " + vmid + " does not exist");
        }
        return vm;
    }

    private SimulatedVm requireRunning(long vmid) throws BackendException {
        SimulatedVm vm = require(vmid);
        if (!vm.running()) {
            throw new BackendException("VM " + vm.hostRef() + " is stopped");
        }
        return vm;
    }

    private SimulatedVm put(SimulatedVm vm) {
        SimulatedVm previous = vms.put(vm.vmid(), vm);
        if (previous != null) {
            account(previous, -1);
        }
        account(vm, +1);
        return vm;
    }

    private void account(SimulatedVm vm, int sign) {
        vmsByNode.merge(vm.node(), sign, Integer::sum);
        if (vm.running()) {
            runningMemoryByNode.merge(vm.node(), sign * vm.memoryBytes(), Long::sum);
        }
    }

    private long usedMemory(String node) {
        return runningMemoryByNode.getOrDefault(node, 0L);
    }
}
