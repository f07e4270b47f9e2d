package dev.bigfleet.proxmox.api;

import java.util.Map;
import java.util.Objects;

/** A VM size: what a clone of {@code templateVmid} is resized to. */
public record InstanceType(String name, int vcpu, long memoryMib, long templateVmid) {
    public InstanceType {
        Objects.requireNonNull(name, "name");
        if (vcpu <= 0) {
            throw new IllegalArgumentException("instance type \"" + name + "\": vcpu must be > 0");
        }
        if (memoryMib <= 0) {
            throw new IllegalArgumentException("instance type \"" + name + "\": memory_mib must be > 0");
        }
    }

    /** What the kubelet can hand out: every vCPU and all memory, rendered as quantities. */
    public Map<String, String> allocatable() {
        return Map.of("cpu", Integer.toString(vcpu), "memory", Quantities.memoryFromMib(memoryMib));
    }
}
