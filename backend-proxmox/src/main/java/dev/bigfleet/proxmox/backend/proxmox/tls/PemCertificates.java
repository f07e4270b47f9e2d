package dev.bigfleet.proxmox.backend.proxmox.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads every certificate of a PEM bundle, ignoring text around the blocks (as openssl does). */
public final class PemCertificates {
    private static final Pattern BLOCK =
            Pattern.compile("-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\\s]+?)-----END CERTIFICATE-----");

    private PemCertificates() {}

    /** @throws IllegalArgumentException when the text holds no certificate or a malformed one */
    public static List<X509Certificate> parse(byte[] content) {
        String text = new String(content, StandardCharsets.ISO_8859_1);
        List<X509Certificate> out = new ArrayList<>();
        CertificateFactory factory;
        try {
            factory = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("no X.509 support in this JVM", e);
        }
        Matcher m = BLOCK.matcher(text);
        while (m.find()) {
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(1));
                out.add((X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der)));
            } catch (IllegalArgumentException | CertificateException e) {
                throw new IllegalArgumentException(
                        "certificate " + (out.size() + 1) + " is malformed: " + e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no PEM certificate found");
        }
        return List.copyOf(out);
    }
}
