package dev.bigfleet.proxmox.backend.proxmox.tls;

import dev.bigfleet.proxmox.backend.proxmox.files.WatchedFile;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * How the Proxmox API's certificate is verified: against a CA bundle (the only trust roots, with
 * hostname verification), against a pinned leaf fingerprint, or both. Never neither: there is no
 * way to turn verification off. A bundle read from a file follows the file: when it is replaced,
 * the next connections are verified against the new bundle.
 */
public final class ApiTrust {
    private final Optional<Supplier<List<X509Certificate>>> authorities;
    private final Optional<CertificateFingerprint> pin;

    /** @throws IllegalArgumentException when neither a CA nor a pin is given */
    public ApiTrust(List<X509Certificate> authorities, Optional<CertificateFingerprint> pin) {
        this(fixed(authorities), pin);
    }

    /** Trust that follows the CA bundle in {@code caFile}. */
    public ApiTrust(WatchedFile<List<X509Certificate>> caFile, Optional<CertificateFingerprint> pin) {
        this(Optional.of(caFile::current), pin);
    }

    private ApiTrust(Optional<Supplier<List<X509Certificate>>> authorities, Optional<CertificateFingerprint> pin) {
        this.authorities = Objects.requireNonNull(authorities, "authorities");
        this.pin = Objects.requireNonNull(pin, "pin");
        if (authorities.isEmpty() && pin.isEmpty()) {
            throw new IllegalArgumentException("TLS verification material is required");
        }
    }

    private static Optional<Supplier<List<X509Certificate>>> fixed(List<X509Certificate> authorities) {
        List<X509Certificate> copy = List.copyOf(authorities);
        return copy.isEmpty() ? Optional.empty() : Optional.of(() -> copy);
    }

    public boolean usesAuthorities() {
        return authorities.isPresent();
    }

    public Optional<CertificateFingerprint> pin() {
        return pin;
    }

    /** A TLS 1.2+ client context that trusts exactly what this says. */
    public SSLContext sslContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            Optional<X509ExtendedTrustManager> chain = authorities.map(
                    a -> new AuthorityTrustManager(a, () -> forgetSessions(context.getClientSessionContext())));
            TrustManager manager = pin.isPresent() ? new PinnedTrustManager(pin.get(), chain) : chain.orElseThrow();
            context.init(null, new TrustManager[] {manager}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot build the TLS context for the Proxmox API: " + e.getMessage(), e);
        }
    }

    /** Sessions verified against an old bundle must not be resumed without a fresh check. */
    private static void forgetSessions(SSLSessionContext sessions) {
        if (sessions == null) {
            return;
        }
        for (byte[] id : Collections.list(sessions.getIds())) {
            var session = sessions.getSession(id);
            if (session != null) {
                session.invalidate();
            }
        }
    }

    /** TLS 1.3 and 1.2 only, and the HTTPS hostname check (the CA path relies on it). */
    public static SSLParameters parameters() {
        SSLParameters p = new SSLParameters();
        p.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
        p.setEndpointIdentificationAlgorithm("HTTPS");
        return p;
    }
}
