package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.engine.InventoryPlan;
import java.util.List;
import java.util.Objects;

/** What the provider offers ({@link InventoryPlan}) and the Proxmox nodes the operator named. */
public record InventoryConfig(InventoryPlan plan, List<String> nodes) {
    public InventoryConfig {
        Objects.requireNonNull(plan, "plan");
        nodes = List.copyOf(nodes);
    }
}
