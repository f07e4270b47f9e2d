package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.util.ArrayList;
import java.util.List;

/**
 * What the cleanup of a FAILED machine does on the substrate: drain each VM of a bound machine (it
 * may be a live node), destroy every VM that carries the machine's id, and prove none is left.
 */
final class FailureCleanupWork {
    private final ProxmoxBackend backend;

    FailureCleanupWork(ProxmoxBackend backend) {
        this.backend = backend;
    }

    /** @throws BackendException when a drain or destroy fails, or a VM of the machine is still there */
    void clean(Machine m, FailureRecord failure, long graceSeconds, TransitionContext context) throws BackendException {
        List<VmTarget> listed = listedVms(m);
        if (failure.bound()) {
            for (VmTarget vm : listed) {
                backend.ensureRunning(vm, context);
                backend.drain(new DrainSpec(vm, m.cluster(), graceSeconds), context);
            }
        }
        List<VmTarget> doomed = new ArrayList<>(listed);
        if (!m.host().isEmpty()
                && m.host().vmid() >= 0
                && doomed.stream().noneMatch(vm -> vm.vmid() == m.host().vmid())) {
            doomed.add(new VmTarget(m.id(), m.host().node(), m.host().vmid()));
        }
        for (VmTarget vm : doomed) {
            backend.destroy(vm, context);
        }
        List<VmTarget> left = listedVms(m);
        if (!left.isEmpty()) {
            throw new BackendException(
                    "VM " + left.get(0).hostRef() + " of machine " + m.id() + " is still there after it was destroyed");
        }
    }

    /** The VMs the substrate lists as this machine's. */
    private List<VmTarget> listedVms(Machine m) throws BackendException {
        List<VmTarget> vms = new ArrayList<>();
        for (ManagedVm vm : backend.describeManaged()) {
            if (vm.machineId().filter(m.id()::equals).isPresent()) {
                vms.add(new VmTarget(m.id(), vm.node(), vm.vmid()));
            }
        }
        return vms;
    }
}
