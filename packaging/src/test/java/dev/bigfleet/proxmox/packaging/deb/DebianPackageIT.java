package dev.bigfleet.proxmox.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.packaging.Commands;
import dev.bigfleet.proxmox.packaging.Tools;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package the build wrote, as an administrator uses it: lintian finds no error,
 * {@code dpkg -i} installs it (its system user, state directory, token file and TLS directory),
 * systemd accepts its unit, the installed command serves HTTPS on the fake backend as that user
 * with TLS files laid out as systemd hands them over (the readiness probe answering without a
 * client certificate, /metrics refusing), and {@code dpkg -r} removes it and leaves the state. Needs root and Debian's tools; runs after {@code package}.
 */
class DebianPackageIT {
    private static final Path STATE_DIR = Path.of("/var/lib/bigfleet-proxmox");
    private static final Path COMMAND = Path.of("/usr/bin/bigfleet-proxmox");
    private static final Path UNIT = Path.of("/lib/systemd/system/bigfleet-proxmox.service");
    private static final Path TLS_DIR = Path.of("/etc/bigfleet-proxmox/tls");
    private static final String CREDENTIALS = "/run/credentials/bigfleet-proxmox.service/";

    @TempDir
    Path dir;

    static Path deb;

    @BeforeAll
    static void findThePackage() throws IOException {
        try (DirectoryStream<Path> debs = Files.newDirectoryStream(Path.of("target"), "bigfleet-proxmox_*_all.deb")) {
            deb = debs.iterator().next().toAbsolutePath();
        }
    }

    @AfterAll
    static void leaveTheMachineAsItWas() {
        if (Tools.find("dpkg").isPresent() && "root".equals(System.getProperty("user.name"))) {
            Commands.run(List.of("dpkg", "--purge", "bigfleet-proxmox"));
            Commands.run(List.of("rm", "-rf", STATE_DIR.toString(), "/etc/bigfleet-proxmox"));
            Commands.run(List.of("deluser", "--system", "--quiet", "bigfleet-proxmox"));
        }
    }

    @Test
    void lintianFindsNoError() {
        Path lintian = Tools.require("lintian");
        Commands.Result result = Commands.run(List.of(lintian.toString(), "--fail-on", "error", deb.toString()));
        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).doesNotContainPattern("(?m)^E: ");
    }

    @Test
    void installsServesAsItsOwnUserAndIsRemovedKeepingItsState() throws Exception {
        Tools.requireRoot();
        Path dpkg = Tools.require("dpkg");
        Path systemdAnalyze = Tools.require("systemd-analyze");
        Tools.require("setpriv");

        Commands.run(List.of(dpkg.toString(), "-i", deb.toString())).ok();
        assertThat(COMMAND).isExecutable();
        assertThat(Commands.run(List.of("id", "-u", "bigfleet-proxmox"))
                        .ok()
                        .output()
                        .strip())
                .isNotEqualTo("0");
        assertThat(Files.getOwner(STATE_DIR).getName()).isEqualTo("bigfleet-proxmox");
        assertThat(Path.of("/etc/bigfleet-proxmox/proxmox-token")).exists();

        Commands.Result verify = Commands.run(List.of(systemdAnalyze.toString(), "verify", UNIT.toString()));
        assertThat(verify.exit()).as(verify.output()).isZero();
        assertThat(verify.output())
                .as("systemd's complaints about the unit")
                .doesNotContain("bigfleet-proxmox.service");
        assertThat(Files.readString(UNIT))
                .contains("User=bigfleet-proxmox", "StateDirectory=bigfleet-proxmox", "ProtectSystem=strict")
                .contains("NoNewPrivileges=yes", "LoadCredential=proxmox-token:/etc/bigfleet-proxmox/proxmox-token")
                .contains("LoadCredential=tls:" + TLS_DIR);
        assertThat(TLS_DIR).isDirectory();
        assertThat(Files.getOwner(TLS_DIR).getName()).isEqualTo("root");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(TLS_DIR)))
                .isEqualTo("rwx------");
        assertThat(Files.readString(Path.of("/etc/default/bigfleet-proxmox")))
                .contains("--metrics-tls-cert=" + CREDENTIALS + "tls_http.crt")
                .contains("--metrics-tls-key=" + CREDENTIALS + "tls_http.key")
                .contains("--metrics-tls-ca=" + CREDENTIALS + "tls_clients-ca.crt");

        // the TLS files as systemd hands them over from /etc/bigfleet-proxmox/tls/: the service
        // user's own, readable by it alone, under the names the default file shows
        Path credentials = serviceUsersCredentials();
        int grpcPort = freePort();
        int httpPort = freePort();
        Path log = dir.resolve("provider.log");
        Process provider = new ProcessBuilder(
                        "setpriv",
                        "--reuid=bigfleet-proxmox",
                        "--regid=bigfleet-proxmox",
                        "--init-groups",
                        "--",
                        COMMAND.toString(),
                        "--use-fake-backend",
                        "--fake-latency=0s",
                        "--seed-count=4",
                        "--addr=127.0.0.1:" + grpcPort,
                        "--metrics-addr=127.0.0.1:" + httpPort,
                        "--metrics-tls-cert=" + credentials.resolve("tls_http.crt"),
                        "--metrics-tls-key=" + credentials.resolve("tls_http.key"),
                        "--metrics-tls-ca=" + credentials.resolve("tls_clients-ca.crt"),
                        "--state=" + STATE_DIR.resolve("state.db"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            HttpClient https = HttpClient.newBuilder()
                    .sslContext(trusting(credentials.resolve("tls_clients-ca.crt")))
                    .build();
            String base = "https://127.0.0.1:" + httpPort;
            // /readyz answers a client without a certificate, as kubelet's probes are
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        assertThat(provider.isAlive())
                                .as("provider running; its log:\n%s", Files.readString(log))
                                .isTrue();
                        try {
                            return get(https, base + "/readyz").statusCode() == 200;
                        } catch (IOException notYet) {
                            return false;
                        }
                    });
            assertThat(get(https, base + "/metrics").statusCode())
                    .as("/metrics without a client certificate")
                    .isEqualTo(403);
        } finally {
            provider.destroy();
            if (!provider.waitFor(60, TimeUnit.SECONDS)) {
                provider.destroyForcibly().waitFor();
            }
        }
        assertThat(provider.exitValue())
                .as("graceful stop; log:\n%s", Files.readString(log))
                .isZero();
        Path state = STATE_DIR.resolve("state.db");
        assertThat(state).isNotEmptyFile();
        assertThat(Files.getOwner(state).getName()).isEqualTo("bigfleet-proxmox");

        Commands.run(List.of(dpkg.toString(), "-r", "bigfleet-proxmox")).ok();
        assertThat(COMMAND).doesNotExist();
        assertThat(UNIT).doesNotExist();
        assertThat(state).as("the state outlives the package").isNotEmptyFile();
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws IOException, InterruptedException {
        return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A throwaway CA and a server certificate for 127.0.0.1 signed by it (openssl), laid out as
     * systemd's credentials: owned by the service user, readable by it alone.
     */
    private Path serviceUsersCredentials() throws IOException {
        // the service user may pass through the test's directory, not read it
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
        Path credentials = Files.createDirectory(dir.resolve("credentials"));
        Files.writeString(credentials.resolve("san.ext"), "subjectAltName=IP:127.0.0.1\n");
        List<List<String>> steps = List.of(
                List.of(
                        "openssl",
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
                        "tls_clients-ca.crt",
                        "-days",
                        "2",
                        "-subj",
                        "/CN=test-ca"),
                List.of(
                        "openssl",
                        "req",
                        "-newkey",
                        "ec",
                        "-pkeyopt",
                        "ec_paramgen_curve:P-256",
                        "-nodes",
                        "-keyout",
                        "tls_http.key",
                        "-out",
                        "http.csr",
                        "-subj",
                        "/CN=provider"),
                List.of(
                        "openssl",
                        "x509",
                        "-req",
                        "-in",
                        "http.csr",
                        "-CA",
                        "tls_clients-ca.crt",
                        "-CAkey",
                        "ca.key",
                        "-CAcreateserial",
                        "-out",
                        "tls_http.crt",
                        "-days",
                        "2",
                        "-extfile",
                        "san.ext"));
        for (List<String> step : steps) {
            Commands.run(step, credentials).ok();
        }
        for (String name : List.of("tls_http.crt", "tls_http.key", "tls_clients-ca.crt")) {
            Path file = credentials.resolve(name);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
            Commands.run(List.of("chown", "bigfleet-proxmox:bigfleet-proxmox", file.toString()))
                    .ok();
        }
        Commands.run(List.of("chown", "bigfleet-proxmox:bigfleet-proxmox", credentials.toString()))
                .ok();
        Files.setPosixFilePermissions(credentials, PosixFilePermissions.fromString("r-x------"));
        return credentials;
    }

    /** A client context whose only trust anchor is the PEM certificate {@code ca}. */
    private static SSLContext trusting(Path ca) throws IOException, GeneralSecurityException {
        KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
        anchors.load(null, null);
        try (InputStream in = Files.newInputStream(ca)) {
            anchors.setCertificateEntry(
                    "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(anchors);
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
