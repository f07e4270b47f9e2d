package dev.bigfleet.proxmox.server.http;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import java.security.cert.X509Certificate;

/**
 * With {@code --metrics-tls-ca}: every path but {@code /healthz} and {@code /readyz} needs a client
 * certificate. The TLS handshake asks every client for one and verifies any it gets against the CA,
 * but cannot require one, since kubelet's probes present none; so this filter refuses, before any
 * routing, a request over a connection that presented no certificate: 403 with an {@link ApiError}
 * under {@code /api/}, plain text elsewhere. (Not 401: no HTTP authentication scheme could answer
 * it, the certificate belongs to the TLS handshake.)
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public final class ClientCertificateFilter implements ContainerRequestFilter {
    /** The servlet request attribute holding the client's verified certificate chain. */
    static final String PEER_CERTIFICATES = "jakarta.servlet.request.X509Certificate";

    static final String REFUSAL = "client certificate required";

    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (path.equals("healthz") || path.equals("readyz")) {
            return;
        }
        if (request.getProperty(PEER_CERTIFICATES) instanceof X509Certificate[] chain && chain.length > 0) {
            return;
        }
        request.abortWith(
                ApiError.covers(path)
                        ? ApiError.of(Response.Status.FORBIDDEN, REFUSAL).toResponse()
                        : Response.status(Response.Status.FORBIDDEN)
                                .type("text/plain; charset=utf-8")
                                .entity(REFUSAL + "\n")
                                .build());
    }
}
