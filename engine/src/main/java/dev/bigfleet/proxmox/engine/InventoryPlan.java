package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.PriceList;
import java.util.List;
import java.util.Objects;

/**
 * What the provider offers: its label (the first part of every slot id and {@code HostRef.provider}),
 * the instance-type catalog, the offerings and their prices.
 */
public record InventoryPlan(
        String providerLabel, InstanceTypeCatalog catalog, List<Offering> offerings, PriceList prices) {
    public InventoryPlan {
        Objects.requireNonNull(providerLabel, "providerLabel");
        Objects.requireNonNull(catalog, "catalog");
        offerings = List.copyOf(offerings);
        Objects.requireNonNull(prices, "prices");
    }
}
