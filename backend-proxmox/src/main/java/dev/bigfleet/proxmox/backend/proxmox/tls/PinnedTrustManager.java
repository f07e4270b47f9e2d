package dev.bigfleet.proxmox.backend.proxmox.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Accepts a server only if its leaf certificate has the pinned SHA-256, after the CA checks when a
 * CA trust manager is given. It extends {@link X509ExtendedTrustManager} on purpose: the JDK wraps
 * a plain {@code X509TrustManager} with its own hostname check, which pin-only mode must not have
 * (Proxmox node certificates rarely name the address operators use), while in CA mode the
 * delegate performs the hostname check itself.
 */
final class PinnedTrustManager extends X509ExtendedTrustManager {
    static final String MISMATCH = "server certificate fingerprint does not match the pinned --proxmox-tls-fingerprint";

    private final CertificateFingerprint pin;
    private final Optional<X509ExtendedTrustManager> chain;

    PinnedTrustManager(CertificateFingerprint pin, Optional<X509ExtendedTrustManager> chain) {
        this.pin = Objects.requireNonNull(pin, "pin");
        this.chain = Objects.requireNonNull(chain, "chain");
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        if (chain.isPresent()) {
            chain.get().checkServerTrusted(certs, authType, engine);
        }
        checkPin(certs);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        if (chain.isPresent()) {
            chain.get().checkServerTrusted(certs, authType, socket);
        }
        checkPin(certs);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        if (chain.isPresent()) {
            chain.get().checkServerTrusted(certs, authType);
        }
        checkPin(certs);
    }

    private void checkPin(X509Certificate[] certs) throws CertificateException {
        if (certs == null || certs.length == 0 || !pin.matches(certs[0])) {
            throw new CertificateException(MISMATCH);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("this trust manager only verifies servers");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("this trust manager only verifies servers");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        throw new CertificateException("this trust manager only verifies servers");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return chain.map(X509ExtendedTrustManager::getAcceptedIssuers).orElse(new X509Certificate[0]);
    }
}
