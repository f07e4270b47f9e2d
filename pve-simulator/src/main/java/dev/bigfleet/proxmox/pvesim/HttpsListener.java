package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * The simulator's HTTPS port (HTTP/1.1 only) and what happens to it in an outage or a certificate
 * change. Stopping it behaves like pveproxy stopping: the port is closed, so new connections are
 * refused, requests being answered still get their answer, and then every connection is closed.
 * It opens again on the same port. A certificate change behaves like new certificates followed by
 * {@code systemctl restart pveproxy}: the port closes as above and opens again serving the new one.
 */
final class HttpsListener {
    /** How long requests being answered may take to finish when the port closes. */
    private static final long DRAIN_MILLIS = 5_000;

    private final ServerConnector connector;
    private final SslContextFactory.Server ssl;
    private final Path tlsDir;
    private volatile TlsMaterial tls;
    private int port;

    private HttpsListener(ServerConnector connector, SslContextFactory.Server ssl, Path tlsDir, TlsMaterial tls) {
        this.connector = connector;
        this.ssl = ssl;
        this.tlsDir = tlsDir;
        this.tls = tls;
    }

    /** Adds the connector to {@code server}; it listens once the server starts. */
    static HttpsListener on(Server server, String host, int port, Path tlsDir, TlsMaterial tls) {
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(tls.keyStore);
        ssl.setKeyStorePassword(new String(tls.keyStorePassword));
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        // pveproxy decodes the path before routing: a volume ID's slash may come encoded (%2F)
        http.setUriCompliance(UriCompliance.DEFAULT.with("pveproxy", UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // The certificate names 127.0.0.1 as an IP SAN; hostname checks are the client's job.
        secure.setSniHostCheck(false);
        http.addCustomizer(secure);
        ServerConnector connector =
                new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        // when the port closes, idle keep-alive connections are closed soon, as a stopping daemon does
        connector.setShutdownIdleTimeout(200);
        server.addConnector(connector);
        return new HttpsListener(connector, ssl, tlsDir, tls);
    }

    /** Called once the server started: remembers the port, so the listener opens again on it. */
    synchronized void started() {
        port = connector.getLocalPort();
    }

    synchronized int port() {
        return port;
    }

    TlsMaterial tls() {
        return tls;
    }

    /** Closes the port: new connections are refused from now on; the ones open are closed once answered. */
    synchronized void refuseConnections() {
        if (!connector.isStarted()) {
            return;
        }
        try {
            connector.shutdown().get(DRAIN_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // requests still running past the drain time are cut, as a stopping daemon would
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot close the simulator's port", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            connector.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot close the simulator's port", e);
        }
    }

    /** Opens the port again (the same one); the cluster's state is as it was. */
    synchronized void acceptConnections() throws IOException {
        if (connector.isStarted()) {
            return;
        }
        connector.setPort(port);
        try {
            connector.start();
        } catch (Exception e) {
            throw new IOException("cannot listen on port " + port + " again: " + e.getMessage(), e);
        }
    }

    /**
     * Mints a new CA and server certificate, writes them to the TLS directory (each file replaced in
     * one step) and restarts the listener with them; while it is refusing connections it only takes
     * them, and serves them once it accepts again.
     */
    synchronized TlsMaterial replaceCertificates() throws IOException {
        TlsMaterial next = TlsMaterial.mint();
        try {
            ssl.reload(f -> {
                f.setKeyStore(next.keyStore);
                f.setKeyStorePassword(new String(next.keyStorePassword));
            });
        } catch (Exception e) {
            throw new IOException("cannot load the new certificate: " + e.getMessage(), e);
        }
        next.writeTo(tlsDir);
        tls = next;
        if (connector.isStarted()) {
            refuseConnections();
            acceptConnections();
        }
        return next;
    }

    Path caFile() {
        return tlsDir.resolve(TlsMaterial.CA_FILE);
    }
}
