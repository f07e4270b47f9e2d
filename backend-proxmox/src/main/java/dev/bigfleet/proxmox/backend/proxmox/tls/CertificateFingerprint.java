package dev.bigfleet.proxmox.backend.proxmox.tls;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;

/** The SHA-256 of a certificate's DER encoding, as Proxmox shows it for a node's API certificate. */
public final class CertificateFingerprint {
    private static final HexFormat COLON_HEX = HexFormat.ofDelimiter(":").withUpperCase();

    private final byte[] sha256;

    private CertificateFingerprint(byte[] sha256) {
        this.sha256 = sha256;
    }

    /**
     * Accepts {@code AB:CD:…} as Proxmox prints it, bare hex, or hex pairs separated by spaces, in
     * any case.
     *
     * @throws IllegalArgumentException when the text is not 32 bytes of hex
     */
    public static CertificateFingerprint parse(String text) {
        String hex = text.trim().replace(":", "").replace(" ", "").toLowerCase(Locale.ROOT);
        if (hex.length() != 64) {
            throw new IllegalArgumentException("expected a SHA-256 fingerprint (64 hex digits, colons optional), got "
                    + hex.length() + " hex characters");
        }
        try {
            return new CertificateFingerprint(HexFormat.of().parseHex(hex));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "expected a SHA-256 fingerprint, but it contains characters that are not hex");
        }
    }

    public static CertificateFingerprint of(X509Certificate certificate) {
        try {
            return new CertificateFingerprint(
                    MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded()));
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            throw new IllegalStateException("cannot hash certificate " + certificate.getSubjectX500Principal(), e);
        }
    }

    public boolean matches(X509Certificate certificate) {
        return MessageDigest.isEqual(sha256, of(certificate).sha256);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CertificateFingerprint
                && MessageDigest.isEqual(sha256, ((CertificateFingerprint) o).sha256);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(sha256);
    }

    /** Colon-separated upper-case hex, the form Proxmox and openssl print. */
    @Override
    public String toString() {
        return COLON_HEX.formatHex(sha256);
    }
}
