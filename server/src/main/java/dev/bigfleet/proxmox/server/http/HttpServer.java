package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.config.ListenAddress;
import java.io.IOException;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/** Jetty serving the Jersey resources (probes, and later metrics and the admin API) on --metrics-addr. */
public final class HttpServer {
    private final Server jetty;
    private final ServerConnector connector;

    public HttpServer(ListenAddress address, ResourceConfig resources) {
        jetty = new Server();
        connector = new ServerConnector(jetty);
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
