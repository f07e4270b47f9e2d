package dev.bigfleet.proxmox.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * A TLS 1.3 handshake of a server context with a client trusting its own certificate, in memory, at
 * startup: what every client would meet at its first connection (a private key that does not belong
 * to the certificate, a key TLS 1.3 cannot sign with, an expired certificate) stops startup instead.
 */
final class SelfHandshake {
    private static final int MAX_STEPS = 100;

    private SelfHandshake() {}

    /** Completes a handshake with {@code server}, or throws why it cannot. */
    static void check(SSLContext server, Path certificate) throws GeneralSecurityException, IOException {
        SSLEngine serverEngine = server.createSSLEngine();
        serverEngine.setUseClientMode(false);
        serverEngine.setEnabledProtocols(new String[] {ServerTls.PROTOCOL});
        SSLEngine client = trusting(leaf(certificate)).createSSLEngine();
        client.setUseClientMode(true);
        client.setEnabledProtocols(new String[] {ServerTls.PROTOCOL});
        int packet = Math.max(
                client.getSession().getPacketBufferSize(),
                serverEngine.getSession().getPacketBufferSize());
        ByteBuffer toServer = ByteBuffer.allocate(packet);
        ByteBuffer toClient = ByteBuffer.allocate(packet);
        client.beginHandshake();
        serverEngine.beginHandshake();
        for (int step = 0; step < MAX_STEPS; step++) {
            boolean clientMoved = advance(client, toClient, toServer);
            boolean serverMoved = advance(serverEngine, toServer, toClient);
            if (done(client) && done(serverEngine)) {
                return;
            }
            if (!clientMoved && !serverMoved) {
                break;
            }
        }
        throw new SSLException("the handshake did not complete");
    }

    private static boolean done(SSLEngine engine) {
        HandshakeStatus status = engine.getHandshakeStatus();
        return status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED;
    }

    /** One step of {@code engine}: reads from {@code in}, writes to {@code out}; whether it did anything. */
    private static boolean advance(SSLEngine engine, ByteBuffer in, ByteBuffer out) throws SSLException {
        switch (engine.getHandshakeStatus()) {
            case NEED_WRAP -> {
                engine.wrap(ByteBuffer.allocate(0), out);
                return true;
            }
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                in.flip();
                int before = in.remaining();
                engine.unwrap(in, ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()));
                boolean read = in.remaining() != before;
                in.compact();
                return read || engine.getHandshakeStatus() != HandshakeStatus.NEED_UNWRAP;
            }
            case NEED_TASK -> {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    private static X509Certificate leaf(Path certificate) throws GeneralSecurityException, IOException {
        try (InputStream in = Files.newInputStream(certificate)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** A client context whose only trust anchor is the server's own certificate. */
    private static SSLContext trusting(X509Certificate leaf) throws GeneralSecurityException, IOException {
        KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
        anchors.load(null, null);
        anchors.setCertificateEntry("server", leaf);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(anchors);
        SSLContext client = SSLContext.getInstance(ServerTls.PROTOCOL);
        client.init(null, trust.getTrustManagers(), null);
        return client;
    }
}
