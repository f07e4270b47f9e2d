package dev.bigfleet.proxmox.backend.proxmox.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /** @throws IllegalArgumentException when the file is unreadable or holds no certificate */
    public static List<X509Certificate> load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
        }
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
                        file + ": certificate " + (out.size() + 1) + " is malformed: " + e.getMessage());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(file + ": no PEM certificate found");
        }
        return List.copyOf(out);
    }
}
