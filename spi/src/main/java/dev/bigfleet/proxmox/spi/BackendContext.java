package dev.bigfleet.proxmox.spi;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import java.util.List;
import java.util.Objects;

/**
 * What a backend is built from: the provider's label (written into every VM it owns, so several
 * providers can share a cluster), the configured nodes (empty when the operator gave none), the
 * instance-type catalog, the offerings, the backend's own options, and where to report the calls it
 * makes.
 */
public record BackendContext(
        String providerLabel,
        List<String> nodes,
        InstanceTypeCatalog catalog,
        List<Offering> offerings,
        BackendOptions options,
        ApiCallRecorder apiCalls) {

    public BackendContext {
        Objects.requireNonNull(providerLabel, "providerLabel");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(catalog, "catalog");
        offerings = List.copyOf(offerings);
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(apiCalls, "apiCalls");
    }

    public BackendContext(
            String providerLabel,
            List<String> nodes,
            InstanceTypeCatalog catalog,
            List<Offering> offerings,
            BackendOptions options) {
        this(providerLabel, nodes, catalog, offerings, options, ApiCallRecorder.NONE);
    }
}
