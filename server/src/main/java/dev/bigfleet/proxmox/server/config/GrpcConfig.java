package dev.bigfleet.proxmox.server.config;

import java.util.Objects;
import java.util.Optional;

/** The gRPC listener: address, optional TLS (with a client CA: mTLS) and whether reflection is on. */
public record GrpcConfig(ListenAddress address, Optional<TlsFiles> tls, boolean reflection) {
    public GrpcConfig {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(tls, "tls");
    }

    /** How the listener is secured, for the startup log line. */
    public String security() {
        return tls.map(t -> t.clientCa().isPresent() ? "mTLS" : "TLS").orElse("insecure");
    }
}
