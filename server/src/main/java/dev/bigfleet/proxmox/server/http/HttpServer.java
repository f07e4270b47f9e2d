package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.config.ListenAddress;
import java.io.IOException;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * Jetty serving the Jersey resources (probes, metrics, the admin page and its API) on --metrics-addr.
 * No response names the server software: no {@code Server} header, and Jetty's own error pages (for
 * requests it refuses before Jersey sees them) carry no "powered by" line.
 */
public final class HttpServer {
    private final Server jetty;
    private final ServerConnector connector;

    public HttpServer(ListenAddress address, ResourceConfig resources) {
        jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setHost(address.host().isEmpty() ? null : address.host());
        connector.setPort(address.port());
        connector.setIdleTimeout(60_000);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new ServletContainer(resources)), "/*");
        jetty.setHandler(context);
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
