package dev.bigfleet.proxmox.server.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The HTTP surface (probes, metrics, admin page and its API): its address, or none when {@code
 * --metrics-addr} is empty, and optional TLS; with a client CA, every path but the probes needs a
 * client certificate.
 */
public record HttpConfig(Optional<ListenAddress> address, Optional<TlsFiles> tls) {
    public HttpConfig {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(tls, "tls");
        if (address.isEmpty() && tls.isPresent()) {
            throw new IllegalArgumentException("TLS for an HTTP port that is off");
        }
    }

    /** Whether every path but the probes needs a client certificate. */
    public boolean requiresClientCertificates() {
        return tls.flatMap(TlsFiles::clientCa).isPresent();
    }

    /** How the port is secured, for the startup log line. */
    public String security() {
        return tls.map(t -> t.clientCa().isPresent() ? "TLS+client-certificates" : "TLS")
                .orElse("insecure");
    }
}
