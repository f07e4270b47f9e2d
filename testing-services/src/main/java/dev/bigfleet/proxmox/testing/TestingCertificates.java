package dev.bigfleet.proxmox.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway CA made with openssl, with a server certificate for {@code 127.0.0.1} and {@code
 * localhost}, a client certificate it signs, and a second CA with a client certificate of its own
 * (one the server must refuse); more client certificates, with URI SANs such as a BigFleet shard's
 * {@code bigfleet://shard/<id>}, on demand ({@link #client}, {@link #otherCaClient}). Keys are
 * PKCS#8 (as Netty wants them), readable by their owner only (as PostgreSQL wants them);
 * certificates are valid for two days.
 */
public final class TestingCertificates {
    private final Path dir;

    private TestingCertificates(Path dir) {
        this.dir = dir;
    }

    /** Makes the certificates in {@code dir} (created when missing). */
    public static TestingCertificates create(Path dir) throws IOException {
        Files.createDirectories(dir);
        TestingCertificates c = new TestingCertificates(dir);
        c.ca("ca", "bigfleet test CA");
        c.ca("other-ca", "another test CA");
        c.leaf("server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        c.leaf("client", "ca", "extendedKeyUsage=clientAuth");
        c.leaf("other-client", "other-ca", "extendedKeyUsage=clientAuth");
        return c;
    }

    public Path directory() {
        return dir;
    }

    /** The CA that signed the server and client certificates. */
    public Path caCert() {
        return dir.resolve("ca.pem");
    }

    public Path serverCert() {
        return dir.resolve("server.pem");
    }

    public Path serverKey() {
        return dir.resolve("server.key");
    }

    public Path clientCert() {
        return dir.resolve("client.pem");
    }

    public Path clientKey() {
        return dir.resolve("client.key");
    }

    /** A CA that signed nothing the server knows. */
    public Path otherCaCert() {
        return dir.resolve("other-ca.pem");
    }

    /** A client certificate signed by {@link #otherCaCert()}. */
    public Path otherClientCert() {
        return dir.resolve("other-client.pem");
    }

    public Path otherClientKey() {
        return dir.resolve("other-client.key");
    }

    /**
     * A client certificate signed by {@link #caCert()}, with {@code uris} as its URI SANs (none:
     * no subjectAltName), its subject {@code CN=name}; written as {@code name.pem} and {@code
     * name.key}.
     */
    public ClientCertificate client(String name, String... uris) throws IOException {
        return issueClient(name, "ca", uris);
    }

    /** A client certificate as {@link #client} makes one, signed by {@link #otherCaCert()} instead. */
    public ClientCertificate otherCaClient(String name, String... uris) throws IOException {
        return issueClient(name, "other-ca", uris);
    }

    private ClientCertificate issueClient(String name, String ca, String... uris) throws IOException {
        if (!name.matches("[a-z0-9][a-z0-9-]*") || Files.exists(dir.resolve(name + ".pem"))) {
            throw new IllegalArgumentException("not a new certificate name: " + name);
        }
        StringBuilder extensions = new StringBuilder("extendedKeyUsage=clientAuth");
        if (uris.length > 0) {
            extensions.append("\nsubjectAltName=");
            for (int i = 0; i < uris.length; i++) {
                extensions.append(i == 0 ? "" : ",").append("URI:").append(uris[i]);
            }
        }
        leaf(name, ca, extensions.toString());
        return new ClientCertificate(dir.resolve(name + ".pem"), dir.resolve(name + ".key"));
    }

    private void ca(String name, String commonName) throws IOException {
        openssl(
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                name + ".key",
                "-out",
                name + ".pem",
                "-days",
                "2",
                "-subj",
                "/CN=" + commonName);
    }

    private void leaf(String name, String ca, String extension) throws IOException {
        openssl(
                "req",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                name + ".raw.key",
                "-out",
                name + ".csr",
                "-subj",
                "/CN=" + name);
        openssl("pkcs8", "-topk8", "-nocrypt", "-in", name + ".raw.key", "-out", name + ".key");
        Files.setPosixFilePermissions(dir.resolve(name + ".key"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(dir.resolve(name + ".ext"), extension + "\n", StandardCharsets.UTF_8);
        openssl(
                "x509",
                "-req",
                "-in",
                name + ".csr",
                "-CA",
                ca + ".pem",
                "-CAkey",
                ca + ".key",
                "-CAcreateserial",
                "-out",
                name + ".pem",
                "-days",
                "2",
                "-extfile",
                name + ".ext");
    }

    private void openssl(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(1, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("openssl " + String.join(" ", args) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running openssl", e);
        }
    }
}
