package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.config.ListenAddress;
import dev.bigfleet.proxmox.server.tls.ServerTls;
import java.io.IOException;
import java.util.Optional;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * Jetty serving the Jersey resources (probes, metrics, the admin page and its API) on --metrics-addr,
 * in plain HTTP or, with {@link Https}, HTTP/1.1 over TLS 1.3.
 *
 * <p>A path segment may hold an encoded slash ({@code %2F}), as HTTP client libraries encode a
 * machine id in {@code /api/v1/machines/{id}}: Jetty's URI compliance lets that one ambiguity
 * through, and its servlet layer passes such a URI on, so Jersey routes on the encoded path and
 * decodes the id. Every other ambiguous URI ({@code %2e%2e} segments, path parameters, empty
 * segments) is still refused.
 *
 * <p>No response names the server software: no {@code Server} header, and {@link ErrorPages} answers
 * for Jetty when it refuses a request before Jersey sees it.
 */
public final class HttpServer {
    private final Server jetty;
    private final ServerConnector connector;

    /** Plain HTTP. */
    public HttpServer(ListenAddress address, ResourceConfig resources) {
        this(address, resources, Optional.empty());
    }

    public HttpServer(ListenAddress address, ResourceConfig resources, Optional<Https> https) {
        jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setUriCompliance(
                UriCompliance.DEFAULT.with("DEFAULT+%2F", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        HttpConnectionFactory plain = new HttpConnectionFactory(http);
        ConnectionFactory[] factories = https.map(tls -> {
                    // probes reach the pod by its address, which the certificate need not name
                    http.addCustomizer(new SecureRequestCustomizer(false, false, -1, false));
                    return new ConnectionFactory[] {
                        new SslConnectionFactory(sslFactory(tls), HttpVersion.HTTP_1_1.asString()), plain
                    };
                })
                .orElseGet(() -> new ConnectionFactory[] {plain});
        connector = new ServerConnector(jetty, factories);
        connector.setHost(address.host().isEmpty() ? null : address.host());
        connector.setPort(address.port());
        connector.setIdleTimeout(60_000);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.getServletHandler().setDecodeAmbiguousURIs(true);
        context.addServlet(new ServletHolder(new ServletContainer(resources)), "/*");
        jetty.setHandler(context);
        jetty.setErrorHandler(new ErrorPages());
        jetty.setStopTimeout(5_000);
    }

    private static SslContextFactory.Server sslFactory(Https tls) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(tls.context());
        ssl.setIncludeProtocols(ServerTls.PROTOCOL);
        // asked, not required: the probes present no certificate; ClientCertificateFilter guards the rest
        ssl.setWantClientAuth(tls.askForClientCertificates());
        return ssl;
    }

    /** Takes the port now, so a bad address fails at once; {@link #start} then serves on it. */
    public void bind() throws IOException {
        connector.open();
    }

    public void start() throws Exception {
        jetty.start();
    }

    public int port() {
        return connector.getLocalPort();
    }

    public void stop() throws Exception {
        jetty.stop();
    }
}
