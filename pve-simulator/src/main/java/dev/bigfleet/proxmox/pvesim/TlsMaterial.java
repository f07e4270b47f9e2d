package dev.bigfleet.proxmox.pvesim;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.HexFormat;
import java.util.Locale;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A fresh CA and a server certificate for {@code localhost}, {@code 127.0.0.1} and {@code ::1}
 * signed by it, shaped like a Proxmox cluster CA and node certificate. Minted on every start, so no
 * key material is ever reused between runs.
 */
final class TlsMaterial {
    static final String CA_FILE = "ca.pem";
    static final String CERT_FILE = "pve-ssl.pem";
    private static final SecureRandom RANDOM = new SecureRandom();

    final X509Certificate ca;
    final X509Certificate leaf;
    final KeyStore keyStore;
    final char[] keyStorePassword;

    private TlsMaterial(X509Certificate ca, X509Certificate leaf, KeyStore keyStore, char[] password) {
        this.ca = ca;
        this.leaf = leaf;
        this.keyStore = keyStore;
        this.keyStorePassword = password;
    }

    static TlsMaterial mint() {
        try {
            KeyPairGenerator kpg = KeyPairGenerator.getInstance("EC");
            kpg.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair caKeys = kpg.generateKeyPair();
            KeyPair leafKeys = kpg.generateKeyPair();
            Instant now = Instant.now();
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();

            X500Name caName = new X500Name("CN=Proxmox Virtual Environment,OU=pve-simulator,O=PVE Cluster Manager CA");
            X509v3CertificateBuilder cab = new JcaX509v3CertificateBuilder(
                    caName,
                    serial(),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(3650))),
                    caName,
                    caKeys.getPublic());
            cab.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            cab.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            cab.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(caKeys.getPublic()));
            X509Certificate ca = convert(cab, caKeys);

            X500Name leafName = new X500Name("CN=localhost,OU=PVE Cluster Node,O=Proxmox Virtual Environment");
            X509v3CertificateBuilder lb = new JcaX509v3CertificateBuilder(
                    caName,
                    serial(),
                    Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(730))),
                    leafName,
                    leafKeys.getPublic());
            lb.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            lb.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            lb.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            lb.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "0:0:0:0:0:0:0:1"),
            }));
            lb.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
            lb.addExtension(
                    Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(leafKeys.getPublic()));
            X509Certificate leaf = convert(lb, caKeys);

            char[] password = HexFormat.of().formatHex(serial().toByteArray()).toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("pve-ssl", leafKeys.getPrivate(), password, new Certificate[] {leaf, ca});
            return new TlsMaterial(ca, leaf, ks, password);
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot mint the simulator's TLS certificates", e);
        }
    }

    private static BigInteger serial() {
        return new BigInteger(64, RANDOM).add(BigInteger.ONE);
    }

    private static X509Certificate convert(X509v3CertificateBuilder b, KeyPair signer)
            throws OperatorCreationException, GeneralSecurityException {
        ContentSigner s = new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate());
        return new JcaX509CertificateConverter().getCertificate(b.build(s));
    }

    /**
     * Writes {@code ca.pem} and the server certificate {@code pve-ssl.pem}, each through a temporary
     * file renamed over the old one, so a reader never sees half a file; returns the CA path.
     */
    Path writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path caFile = dir.resolve(CA_FILE);
        replace(caFile, pem(ca));
        replace(dir.resolve(CERT_FILE), pem(leaf));
        return caFile;
    }

    private static void replace(Path file, String text) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".new");
        Files.writeString(next, text, StandardCharsets.US_ASCII);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** SHA-256 of the server certificate's DER, as {@code AB:CD:...}. */
    String fingerprint() {
        return fingerprint(leaf);
    }

    static String fingerprint(X509Certificate cert) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(cert.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(d);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String pem(X509Certificate cert) {
        try {
            String b64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                    .encodeToString(cert.getEncoded());
            return "-----BEGIN CERTIFICATE-----\n" + b64 + "\n-----END CERTIFICATE-----\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "TlsMaterial[" + fingerprint().toLowerCase(Locale.ROOT) + "]";
    }
}
