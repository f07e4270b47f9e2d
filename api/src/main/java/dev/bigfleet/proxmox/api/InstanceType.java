package dev.bigfleet.proxmox.api;

import java.util.Map;
import java.util.Objects;

/**
 * A VM size: what a clone of {@code templateVmid} is resized to.
 *
 * @param settings the entry's keys for the backend (its template per node, disk size, bridge, ...),
 *     each value as the JSON text the operator wrote; the backend declares which keys it reads and
 *     validates their values
 * @param extraAllocatable what the type adds to the kubelet's allocatable besides its vCPUs and
 *     memory, e.g. {@code nvidia.com/gpu: 1} for the GPU its PCI mapping passes through
 */
public record InstanceType(
        String name,
        int vcpu,
        long memoryMib,
        long templateVmid,
        Map<String, String> settings,
        Map<String, String> extraAllocatable) {
    public InstanceType {
        Objects.requireNonNull(name, "name");
        if (vcpu <= 0) {
            throw new IllegalArgumentException("instance type \"" + name + "\": vcpu must be > 0");
        }
        if (memoryMib <= 0) {
            throw new IllegalArgumentException("instance type \"" + name + "\": memory_mib must be > 0");
        }
        settings = Map.copyOf(settings);
        extraAllocatable = Map.copyOf(extraAllocatable);
        if (extraAllocatable.containsKey("cpu") || extraAllocatable.containsKey("memory")) {
            throw new IllegalArgumentException("instance type \"" + name
                    + "\": allocatable adds to vcpu and memory_mib; cpu and memory come from those");
        }
    }

    /** A type whose allocatable is its vCPUs and memory. */
    public InstanceType(String name, int vcpu, long memoryMib, long templateVmid, Map<String, String> settings) {
        this(name, vcpu, memoryMib, templateVmid, settings, Map.of());
    }

    /** A type without backend settings. */
    public InstanceType(String name, int vcpu, long memoryMib, long templateVmid) {
        this(name, vcpu, memoryMib, templateVmid, Map.of());
    }

    /** What the kubelet can hand out: every vCPU and all memory, rendered as quantities, and the extras. */
    public Map<String, String> allocatable() {
        Map<String, String> all = new java.util.TreeMap<>(extraAllocatable);
        all.put("cpu", Integer.toString(vcpu));
        all.put("memory", Quantities.memoryFromMib(memoryMib));
        return Map.copyOf(all);
    }
}
