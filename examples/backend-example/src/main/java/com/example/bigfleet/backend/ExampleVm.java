package com.example.bigfleet.backend;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.bigfleet.proxmox.spi.ManagedVm;
import java.util.Objects;
import java.util.Optional;

/**
 * One VM of the example's substrate, as kept in memory and in the state file. {@code clusterId} is
 * the cluster its guest was bootstrapped into, null before Configure and after Drain.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record ExampleVm(long vmid, String node, String machineId, String instanceType, long memoryMib, boolean running,
        String clusterId) {
    ExampleVm {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(machineId, "machineId");
        Objects.requireNonNull(instanceType, "instanceType");
    }

    String hostRef() {
        return node + "/" + vmid;
    }

    ExampleVm withRunning(boolean now) {
        return new ExampleVm(vmid, node, machineId, instanceType, memoryMib, now, clusterId);
    }

    ExampleVm withClusterId(String now) {
        return new ExampleVm(vmid, node, machineId, instanceType, memoryMib, running, now);
    }

    ManagedVm toManaged() {
        return new ManagedVm(Optional.of(machineId), node, vmid, running);
    }
}
