package dev.bigfleet.proxmox.backend.fake;

import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Shared builders for the fake's tests. */
final class Fixtures {
    static final InstanceType SMALL = new InstanceType("pve.small", 2, 4096, 9000);
    static final String NODE = "pve1";
    static final String SECRET = "kubeadm-join-token-s3cr3t-abcdef";
    static final byte[] BLOB = ("#!/bin/sh\nkubeadm join --token " + SECRET + "\n").getBytes(StandardCharsets.UTF_8);

    private Fixtures() {}

    static FakeProxmoxBackend backend(Duration latency, boolean faults) {
        return new FakeProxmoxBackend(new FakeSettings(latency, faults), new SimulatedCluster(List.of(NODE, "pve2")));
    }

    static CloneSpec cloneSpec(String machineId) {
        return new CloneSpec(machineId, SMALL, NODE, Map.of());
    }

    static CreatedVm create(FakeProxmoxBackend backend, String machineId) throws BackendException {
        return backend.cloneAndStart(cloneSpec(machineId), forMachine(machineId));
    }

    static VmTarget target(String machineId, CreatedVm vm) {
        return new VmTarget(machineId, vm.node(), vm.vmid());
    }

    static BootstrapSpec bootstrap(String machineId, CreatedVm vm, String clusterId) {
        return new BootstrapSpec(target(machineId, vm), clusterId, BLOB);
    }
}
