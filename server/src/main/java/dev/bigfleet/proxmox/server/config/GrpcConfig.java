package dev.bigfleet.proxmox.server.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The gRPC listener: address, optional TLS (with a client CA: mTLS), whether reflection is on, and
 * under mTLS what a client certificate that names no shard may do.
 */
public record GrpcConfig(
        ListenAddress address, Optional<TlsFiles> tls, boolean reflection, UnnamedClients unnamedClients) {
    public GrpcConfig {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(unnamedClients, "unnamedClients");
    }

    /** Whether every client presents a certificate the client CA signed: the only case with client identities. */
    public boolean mutualTls() {
        return tls.flatMap(TlsFiles::clientCa).isPresent();
    }

    /** How the listener is secured, for the startup log line. */
    public String security() {
        return tls.map(t -> t.clientCa().isPresent() ? "mTLS" : "TLS").orElse("insecure");
    }
}
