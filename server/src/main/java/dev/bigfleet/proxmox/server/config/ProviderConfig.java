package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.server.engine.OrphanPolicy;
import dev.bigfleet.proxmox.server.engine.TransitionTimeouts;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The validated configuration of one provider process. */
public record ProviderConfig(
        ListenAddress grpcAddress,
        Optional<ListenAddress> httpAddress,
        String providerLabel,
        String backendName,
        ProxmoxBackendFactory backendFactory,
        BackendOptions backendOptions,
        List<String> nodes,
        InstanceTypeCatalog catalog,
        List<Offering> offerings,
        PriceList prices,
        TransitionTimeouts timeouts,
        Duration reconcileInterval,
        Duration shutdownGrace,
        boolean reflection,
        Optional<GrpcTls> tls,
        Optional<Path> statePath,
        OrphanPolicy orphans) {

    /** How the gRPC listener is secured, for the startup log line. */
    public String security() {
        return tls.map(t -> t.clientCa().isPresent() ? "mTLS" : "TLS").orElse("insecure");
    }
}
