package dev.bigfleet.proxmox.server.grpc;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A throwaway CA with a server certificate for 127.0.0.1 and a client certificate, made with openssl. */
public final class TestCertificates {
    public final Path caCert;
    public final Path serverCert;
    public final Path serverKey;
    public final Path clientCert;
    public final Path clientKey;
    public final Path otherCaCert;
    public final Path otherClientCert;
    public final Path otherClientKey;

    private TestCertificates(Path dir) {
        caCert = dir.resolve("ca.pem");
        serverCert = dir.resolve("server.pem");
        serverKey = dir.resolve("server.key");
        clientCert = dir.resolve("client.pem");
        clientKey = dir.resolve("client.key");
        otherCaCert = dir.resolve("other-ca.pem");
        otherClientCert = dir.resolve("other-client.pem");
        otherClientKey = dir.resolve("other-client.key");
    }

    public static TestCertificates create(Path dir) throws IOException, InterruptedException {
        TestCertificates c = new TestCertificates(dir);
        c.ca("ca");
        c.ca("other-ca");
        c.leaf("server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        c.leaf("client", "ca", "extendedKeyUsage=clientAuth");
        c.leaf("other-client", "other-ca", "extendedKeyUsage=clientAuth");
        return c;
    }

    private void ca(String name) throws IOException, InterruptedException {
        openssl(List.of(
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
                "/CN=" + name));
    }

    private void leaf(String name, String ca, String extension) throws IOException, InterruptedException {
        openssl(List.of(
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
                "/CN=" + name));
        // gRPC's Netty wants PKCS#8 keys
        openssl(List.of("pkcs8", "-topk8", "-nocrypt", "-in", name + ".raw.key", "-out", name + ".key"));
        java.nio.file.Files.writeString(caCert.getParent().resolve(name + ".ext"), extension + "\n");
        openssl(List.of(
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
                name + ".ext"));
    }

    private void openssl(List<String> args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>();
        command.add("openssl");
        command.addAll(args);
        Process p = new ProcessBuilder(command)
                .directory(caCert.getParent().toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("openssl " + args + " failed: " + out);
        }
    }
}
