package dev.bigfleet.proxmox.spi;

import dev.bigfleet.proxmox.api.InstanceType;
import java.util.Map;
import java.util.Objects;

/** What Create asks for: a VM of {@code instanceType} on node {@code zone} for {@code machineId}. */
public record CloneSpec(String machineId, InstanceType instanceType, String zone, Map<String, String> labels) {
    public CloneSpec {
        Objects.requireNonNull(machineId, "machineId");
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(zone, "zone");
        labels = Map.copyOf(labels);
    }
}
