package com.example.bigfleet.backend;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.NodeStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The example's substrate: its nodes and the VMs on each, in memory and, with a state file, on disk
 * after every change. A real backend would talk to its hypervisor here; everything else in the
 * plugin stays as it is. Every method is atomic; callers do their waiting (a boot) outside.
 *
 * <p>VMIDs are unique across nodes and never reused, so a VMID names the same VM or none.
 */
final class ExampleNodes {
    static final long FIRST_VMID = 100;
    static final long NODE_MEMORY_BYTES = 256L << 30;
    static final int NODE_CPUS = 64;
    private static final long MIB = 1L << 20;

    private final Map<String, Map<Long, ExampleVm>> vmsByNode = new LinkedHashMap<>();
    private final Optional<StateFile> stateFile;
    private long nextVmid = FIRST_VMID;
    // what a guest's hooks exit with; not kept in the state file: guests start afresh with a provider
    private final Map<Long, Integer> bootstrapExitCodes = new HashMap<>();
    private final Map<Long, Integer> drainExitCodes = new HashMap<>();

    /** @throws IllegalArgumentException when the state file exists but cannot be read */
    ExampleNodes(Collection<String> nodes, Optional<StateFile> stateFile) {
        this.stateFile = stateFile;
        nodes.forEach(n -> vmsByNode.put(n, new TreeMap<>()));
        stateFile.flatMap(StateFile::read).ifPresent(this::restore);
    }

    private void restore(StateFile.Contents saved) {
        saved.nodes().forEach((node, vms) -> {
            Map<Long, ExampleVm> onNode = vmsByNode.computeIfAbsent(node, n -> new TreeMap<>());
            for (ExampleVm vm : vms) {
                onNode.put(vm.vmid(), vm);
                nextVmid = Math.max(nextVmid, vm.vmid() + 1);
            }
        });
        nextVmid = Math.max(nextVmid, saved.nextVmid());
    }

    synchronized List<String> nodeNames() {
        return List.copyOf(vmsByNode.keySet());
    }

    synchronized boolean hasNode(String node) {
        return vmsByNode.containsKey(node);
    }

    synchronized Optional<ExampleVm> vm(long vmid) {
        for (Map<Long, ExampleVm> onNode : vmsByNode.values()) {
            ExampleVm vm = onNode.get(vmid);
            if (vm != null) {
                return Optional.of(vm);
            }
        }
        return Optional.empty();
    }

    synchronized Optional<ExampleVm> ownedBy(String machineId) {
        return all().stream().filter(vm -> vm.machineId().equals(machineId)).findFirst();
    }

    /** Every VM, node by node. */
    synchronized List<ExampleVm> all() {
        List<ExampleVm> all = new ArrayList<>();
        vmsByNode.values().forEach(onNode -> all.addAll(onNode.values()));
        return all;
    }

    /**
     * A new, stopped VM for {@code machineId} on {@code node}, or the one the machine already has, so
     * two racing Creates of one machine never make two VMs.
     */
    synchronized ExampleVm cloneFor(String machineId, String node, InstanceType type) throws BackendException {
        Optional<ExampleVm> owned = ownedBy(machineId);
        if (owned.isPresent()) {
            return owned.get();
        }
        if (!vmsByNode.containsKey(node)) {
            throw new BackendException("node \"" + node + "\" is not one of this backend's nodes ("
                    + String.join(", ", vmsByNode.keySet()) + ")");
        }
        ExampleVm vm = new ExampleVm(nextVmid++, node, machineId, type.name(), type.memoryMib(), false, null);
        vmsByNode.get(node).put(vm.vmid(), vm);
        save();
        return vm;
    }

    /** Powers a VM on or off; empty when it is gone. Also how tests stop one behind the backend's back. */
    synchronized Optional<ExampleVm> setRunning(long vmid, boolean running) {
        return vm(vmid).map(vm -> replace(vm.withRunning(running)));
    }

    /** Records the cluster the VM's guest joined (null: it left it); empty when the VM is gone. */
    synchronized Optional<ExampleVm> setClusterId(long vmid, String clusterId) {
        return vm(vmid).map(vm -> replace(vm.withClusterId(clusterId)));
    }

    /** Destroys a VM; false when it was already gone. */
    synchronized boolean remove(long vmid) {
        Optional<ExampleVm> vm = vm(vmid);
        vm.ifPresent(v -> {
            vmsByNode.get(v.node()).remove(vmid);
            bootstrapExitCodes.remove(vmid);
            drainExitCodes.remove(vmid);
            save();
        });
        return vm.isPresent();
    }

    synchronized List<NodeStatus> statuses() {
        List<NodeStatus> statuses = new ArrayList<>();
        vmsByNode.forEach((node, vms) -> {
            long used = vms.values().stream().filter(ExampleVm::running).mapToLong(vm -> vm.memoryMib() * MIB).sum();
            statuses.add(new NodeStatus(node, true, NODE_MEMORY_BYTES, used, NODE_CPUS));
        });
        return statuses;
    }

    /** What the bootstrap hook in the VM's guest exits with: 0 unless a test said otherwise. */
    synchronized int bootstrapExitCode(long vmid) {
        return bootstrapExitCodes.getOrDefault(vmid, 0);
    }

    synchronized int drainExitCode(long vmid) {
        return drainExitCodes.getOrDefault(vmid, 0);
    }

    /** Test hook: the VM's bootstrap hook will exit {@code code}. */
    synchronized void failBootstrapHook(long vmid, int code) {
        bootstrapExitCodes.put(vmid, code);
    }

    /** Test hook: draining the VM's node will exit {@code code}. */
    synchronized void failDrain(long vmid, int code) {
        drainExitCodes.put(vmid, code);
    }

    private ExampleVm replace(ExampleVm vm) {
        vmsByNode.get(vm.node()).put(vm.vmid(), vm);
        save();
        return vm;
    }

    private void save() {
        if (stateFile.isPresent()) {
            Map<String, List<ExampleVm>> byNode = new LinkedHashMap<>();
            vmsByNode.forEach((node, vms) -> byNode.put(node, List.copyOf(vms.values())));
            stateFile.get().write(nextVmid, byNode);
        }
    }
}
