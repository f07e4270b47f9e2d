package dev.bigfleet.proxmox.ctl;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A throwaway CA with a server certificate for 127.0.0.1 and localhost and a client certificate, made with openssl. */
final class TestCertificates {
    final Path caCert;
    final Path serverCert;
    final Path serverKey;
    final Path clientCert;
    final Path clientKey;

    private TestCertificates(Path dir) {
        caCert = dir.resolve("ca.pem");
        serverCert = dir.resolve("server.pem");
        serverKey = dir.resolve("server.key");
        clientCert = dir.resolve("client.pem");
        clientKey = dir.resolve("client.key");
    }

    static TestCertificates create(Path dir) throws IOException, InterruptedException {
        TestCertificates c = new TestCertificates(dir);
        c.openssl(
                dir,
                "req",
                "-x509",
                "-newkey",
                "ec",
                "-pkeyopt",
                "ec_paramgen_curve:P-256",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=bigfleetctl test CA");
        c.leaf(dir, "server", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        c.leaf(dir, "client", "extendedKeyUsage=clientAuth");
        return c;
    }

    private void leaf(Path dir, String name, String extension) throws IOException, InterruptedException {
        openssl(
                dir,
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
        // Netty wants PKCS#8 keys
        openssl(dir, "pkcs8", "-topk8", "-nocrypt", "-in", name + ".raw.key", "-out", name + ".key");
        Files.writeString(dir.resolve(name + ".ext"), extension + "\n", StandardCharsets.UTF_8);
        openssl(
                dir,
                "x509",
                "-req",
                "-in",
                name + ".csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                name + ".pem",
                "-days",
                "2",
                "-extfile",
                name + ".ext");
    }

    private void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("openssl " + List.of(args) + " failed: " + out);
        }
    }
}
