package dev.bigfleet.proxmox.backend.proxmox.tls;

import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Verifies the server against the CA bundle as it is now: the JDK's PKIX checks (and, through the
 * engine's parameters, the hostname check) over exactly those authorities, rebuilt whenever the
 * bundle changes, so a replaced CA file is used from the next handshake on.
 */
final class AuthorityTrustManager extends X509ExtendedTrustManager {
    private record Built(List<X509Certificate> authorities, X509ExtendedTrustManager manager) {}

    private final Supplier<List<X509Certificate>> authorities;
    private final Runnable onChange;
    private volatile Built built;

    /** @param onChange run after the bundle changed (to forget TLS sessions verified by the old one) */
    AuthorityTrustManager(Supplier<List<X509Certificate>> authorities, Runnable onChange) {
        this.authorities = authorities;
        this.onChange = onChange;
        List<X509Certificate> now = authorities.get();
        this.built = new Built(now, build(now));
    }

    private X509ExtendedTrustManager current() {
        List<X509Certificate> now = authorities.get();
        Built b = built;
        if (now == b.authorities()) {
            return b.manager();
        }
        synchronized (this) {
            if (built.authorities() != now) {
                built = new Built(now, build(now));
                onChange.run();
            }
            return built.manager();
        }
    }

    static X509ExtendedTrustManager build(List<X509Certificate> authorities) {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (X509Certificate ca : authorities) {
                store.setCertificateEntry("proxmox-ca-" + i++, ca);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            for (TrustManager m : factory.getTrustManagers()) {
                if (m instanceof X509ExtendedTrustManager) {
                    return (X509ExtendedTrustManager) m;
                }
            }
            throw new IllegalStateException("no X.509 trust manager available");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build the TLS trust for the Proxmox API: " + e.getMessage(), e);
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        current().checkServerTrusted(certs, authType, engine);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        current().checkServerTrusted(certs, authType, socket);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        current().checkServerTrusted(certs, authType);
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
        return current().getAcceptedIssuers();
    }
}
