package dev.bigfleet.proxmox.backend.fake;

import dev.bigfleet.proxmox.spi.ManagedVm;
import java.util.Objects;
import java.util.Optional;

/**
 * One VM of the simulated cluster, as an immutable snapshot. {@code clusterId} is the cluster its
 * guest was last bootstrapped into, empty before Configure and after Drain.
 */
public record SimulatedVm(
        long vmid,
        String node,
        String machineId,
        String instanceType,
        int vcpu,
        long memoryMib,
        PowerState power,
        Optional<String> clusterId) {

    private static final long MIB = 1024L * 1024;

    public SimulatedVm {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(machineId, "machineId");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(power, "power");
        Objects.requireNonNull(clusterId, "clusterId");
    }

    /** The name a clone gets; like the real markers, it is the same for every provider instance. */
    public String name() {
        return "bigfleet-" + vmid;
    }

    public String hostRef() {
        return node + "/" + vmid;
    }

    public boolean running() {
        return power == PowerState.RUNNING;
    }

    public long memoryBytes() {
        return memoryMib * MIB;
    }

    SimulatedVm withPower(PowerState newPower) {
        return new SimulatedVm(vmid, node, machineId, instanceType, vcpu, memoryMib, newPower, clusterId);
    }

    SimulatedVm withClusterId(Optional<String> newClusterId) {
        return new SimulatedVm(vmid, node, machineId, instanceType, vcpu, memoryMib, power, newClusterId);
    }

    ManagedVm toManaged() {
        return new ManagedVm(Optional.of(machineId), node, vmid, running());
    }
}
