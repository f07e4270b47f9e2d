package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.config.ListenAddress;
import java.io.IOException;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * Jetty serving the Jersey resources (probes, metrics, the admin page and its API) on --metrics-addr.
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

    public HttpServer(ListenAddress address, ResourceConfig resources) {
        jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setUriCompliance(
                UriCompliance.DEFAULT.with("DEFAULT+%2F", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
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
