package dev.bigfleet.proxmox.api;

import java.util.Map;
import java.util.Objects;

/** A block of identical quota: {@code count} Speculative slots of one type in one zone. */
public record Offering(
        String instanceType,
        String zone,
        CapacityType capacityType,
        int count,
        Map<String, String> resources,
        Map<String, String> labels) {

    public Offering {
        Objects.requireNonNull(instanceType, "instanceType");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(capacityType, "capacityType");
        resources = Map.copyOf(resources == null ? Map.of() : resources);
        labels = Map.copyOf(labels == null ? Map.of() : labels);
    }

    /** The id of this offering's slot number {@code index}. */
    public String slotId(String provider, int index) {
        return SlotId.format(provider, capacityType, instanceType, zone, index);
    }
}
