package dev.bigfleet.proxmox.spi;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import java.util.List;
import java.util.Objects;

/**
 * What a backend is built from: the provider's identity and offerings, plus the raw settings
 * (flag name without dashes → value) so each backend reads and validates its own.
 */
public record BackendContext(
        String providerLabel,
        List<String> nodes,
        InstanceTypeCatalog catalog,
        List<Offering> offerings,
        BackendOptions options) {

    public BackendContext {
        Objects.requireNonNull(providerLabel, "providerLabel");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(catalog, "catalog");
        offerings = List.copyOf(offerings);
        Objects.requireNonNull(options, "options");
    }
}
