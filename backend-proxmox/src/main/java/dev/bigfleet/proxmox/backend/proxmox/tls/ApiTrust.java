package dev.bigfleet.proxmox.backend.proxmox.tls;

import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * How the Proxmox API's certificate is verified: against a CA bundle (the only trust roots, with
 * hostname verification), against a pinned leaf fingerprint, or both. Never neither: there is no
 * way to turn verification off.
 */
public final class ApiTrust {
    private final List<X509Certificate> authorities;
    private final Optional<CertificateFingerprint> pin;

    /** @throws IllegalArgumentException when neither a CA nor a pin is given */
    public ApiTrust(List<X509Certificate> authorities, Optional<CertificateFingerprint> pin) {
        this.authorities = List.copyOf(authorities);
        this.pin = pin;
        if (this.authorities.isEmpty() && pin.isEmpty()) {
            throw new IllegalArgumentException("TLS verification material is required");
        }
    }

    public boolean usesAuthorities() {
        return !authorities.isEmpty();
    }

    public Optional<CertificateFingerprint> pin() {
        return pin;
    }

    /** A TLS 1.2+ client context that trusts exactly what this says. */
    public SSLContext sslContext() {
        try {
            Optional<X509ExtendedTrustManager> chain =
                    authorities.isEmpty() ? Optional.empty() : Optional.of(authorityTrustManager());
            TrustManager manager = pin.isPresent() ? new PinnedTrustManager(pin.get(), chain) : chain.orElseThrow();
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {manager}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS context for the Proxmox API: " + e.getMessage(), e);
        }
    }

    /** TLS 1.3 and 1.2 only, and the HTTPS hostname check (the CA path relies on it). */
    public static SSLParameters parameters() {
        SSLParameters p = new SSLParameters();
        p.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        p.setEndpointIdentificationAlgorithm("HTTPS");
        return p;
    }

    private X509ExtendedTrustManager authorityTrustManager() throws GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            store.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException(e);
        }
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
        throw new GeneralSecurityException("no X.509 trust manager available");
    }
}
