package dev.bigfleet.proxmox.api;

import java.util.Map;
import java.util.Objects;

/**
 * A VM size: what a clone of {@code templateVmid} is resized to.
 *
 * @param settings the entry's keys for the backend (its template per node, disk size, bridge, ...),
 *     each value as the JSON text the operator wrote; the backend declares which keys it reads and
 *     validates their values
 */
public record InstanceType(String name, int vcpu, long memoryMib, long templateVmid, Map<String, String> settings) {
    public InstanceType {
        Objects.requireNonNull(name, "name");
        if (vcpu <= 0) {
            throw new IllegalArgumentException("instance type \"" + name + "\": vcpu must be > 0");
        }
        if (memoryMib <= 0) {
            throw new IllegalArgumentException("instance type \"" + name + "\": memory_mib must be > 0");
        }
        settings = Map.copyOf(settings);
    }

    /** A type without backend settings. */
    public InstanceType(String name, int vcpu, long memoryMib, long templateVmid) {
        this(name, vcpu, memoryMib, templateVmid, Map.of());
    }

    /** What the kubelet can hand out: every vCPU and all memory, rendered as quantities. */
    public Map<String, String> allocatable() {
        return Map.of("cpu", Integer.toString(vcpu), "memory", Quantities.memoryFromMib(memoryMib));
    }
}
