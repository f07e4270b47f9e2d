package dev.bigfleet.proxmox.server.http;

import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * TLS on the HTTP port: the server's context, and whether the handshake asks every client for a
 * certificate (verified when given, required by {@link ClientCertificateFilter} on all but the
 * probes).
 */
public record Https(SSLContext context, boolean askForClientCertificates) {
    public Https {
        Objects.requireNonNull(context, "context");
    }
}
