package dev.bigfleet.proxmox.server.tls;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;
import javax.security.auth.x500.X500Principal;

/**
 * What names a client certificate in a log line, all of it public: its subject, its serial number
 * and its SHA-256 fingerprint, both in hex as {@code openssl x509 -serial -fingerprint -sha256}
 * prints them, so an operator can find the certificate that was used.
 */
public record CertificateLabel(String subject, String serial, String sha256) {
    public static CertificateLabel of(X509Certificate certificate) {
        return new CertificateLabel(
                certificate.getSubjectX500Principal().getName(X500Principal.RFC2253),
                certificate.getSerialNumber().toString(16).toUpperCase(Locale.ROOT),
                fingerprint(certificate));
    }

    private static String fingerprint(X509Certificate certificate) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
        } catch (CertificateEncodingException | NoSuchAlgorithmException e) {
            return "unknown";
        }
    }
}
