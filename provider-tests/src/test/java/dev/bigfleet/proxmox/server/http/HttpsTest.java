package dev.bigfleet.proxmox.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.testing.TestingCertificates;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.netty.shaded.io.netty.handler.ssl.JdkSslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTP port over real HTTPS: with {@code --metrics-tls-cert}/{@code --metrics-tls-key} every
 * path is served over TLS 1.3 only; with {@code --metrics-tls-ca} too, the probes still answer a
 * client without a certificate (as kubelet is), every other path refuses it (403, JSON under
 * {@code /api/}) and serves a client whose certificate the CA signed; a certificate from another CA
 * fails the handshake. Bad files stop startup with one line naming the flag.
 */
class HttpsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static TestingCertificates certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestingCertificates.create(dir);
    }

    private static TestingProvider start(String... tls) throws Exception {
        return TestingProvider.builder()
                .seedCount(2)
                .fakeLatency(Duration.ZERO)
                .flags(tls)
                .build();
    }

    private static String[] serverTls(String... more) {
        List<String> args = new ArrayList<>(List.of(
                "--metrics-tls-cert",
                certs.serverCert().toString(),
                "--metrics-tls-key",
                certs.serverKey().toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    /** A client trusting {@code ca}, presenting {@code cert}/{@code key} when given, speaking only {@code protocol}. */
    private static HttpClient client(Path ca, Path cert, Path key, String protocol) throws IOException {
        SslContextBuilder builder =
                SslContextBuilder.forClient().sslProvider(SslProvider.JDK).trustManager(ca.toFile());
        if (cert != null) {
            builder.keyManager(cert.toFile(), key.toFile());
        }
        SSLContext ssl = ((JdkSslContext) builder.build()).context();
        SSLParameters parameters = new SSLParameters();
        parameters.setProtocols(new String[] {protocol});
        return HttpClient.newBuilder()
                .sslContext(ssl)
                .sslParameters(parameters)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    private static HttpClient anonymous() throws IOException {
        return client(certs.caCert(), null, null, "TLSv1.3");
    }

    private static HttpClient withClientCertificate() throws IOException {
        return client(certs.caCert(), certs.clientCert(), certs.clientKey(), "TLSv1.3");
    }

    private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
        return client.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String https(TestingProvider provider, String path) {
        return "https://127.0.0.1:" + provider.httpPort() + path;
    }

    private static void awaitReady(HttpClient client, TestingProvider provider) {
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> get(client, https(provider, "/readyz")).statusCode() == 200);
    }

    @Test
    void tlsServesEveryPathOverTls13Only() throws Exception {
        try (TestingProvider provider = start(serverTls())) {
            HttpClient client = anonymous();
            awaitReady(client, provider);
            for (String path : List.of("/healthz", "/metrics", "/admin/", "/api/v1/status")) {
                assertThat(get(client, https(provider, path)).statusCode())
                        .as(path)
                        .isEqualTo(200);
            }
            HttpResponse<String> page = get(client, https(provider, "/admin"));
            assertThat(page.statusCode()).isEqualTo(301);
            assertThat(page.headers().firstValue("Location")).hasValue(https(provider, "/admin/"));

            assertThatThrownBy(() -> get(client(certs.caCert(), null, null, "TLSv1.2"), https(provider, "/healthz")))
                    .as("TLS 1.2")
                    .isInstanceOf(IOException.class);
            assertThatThrownBy(
                            () -> get(client(certs.otherCaCert(), null, null, "TLSv1.3"), https(provider, "/healthz")))
                    .as("a client that does not trust the certificate")
                    .isInstanceOf(IOException.class);
            assertThatThrownBy(() ->
                            get(HttpClient.newHttpClient(), "http://127.0.0.1:" + provider.httpPort() + "/healthz"))
                    .as("plain HTTP")
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void withAClientCaEveryPathButTheProbesNeedsAClientCertificate() throws Exception {
        try (TestingProvider provider =
                start(serverTls("--metrics-tls-ca", certs.caCert().toString()))) {
            HttpClient anonymous = anonymous();
            awaitReady(anonymous, provider);
            HttpResponse<String> healthz = get(anonymous, https(provider, "/healthz"));
            assertThat(healthz.statusCode()).isEqualTo(200);
            assertThat(healthz.body()).isEqualTo("ok\n");

            for (String path : List.of("/metrics", "/admin/", "/admin/app.js", "/nope", "/healthz/")) {
                HttpResponse<String> refused = get(anonymous, https(provider, path));
                assertThat(refused.statusCode()).as(path).isEqualTo(403);
                assertThat(refused.headers().firstValue("Content-Type"))
                        .as(path)
                        .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
                assertThat(refused.body()).as(path).isEqualTo("client certificate required\n");
            }
            for (String path : List.of("/api/v1/summary", "/api/v1/machines/proxmox%2FOnDemand", "/api/v2")) {
                HttpResponse<String> refused = get(anonymous, https(provider, path));
                assertThat(refused.statusCode()).as(path).isEqualTo(403);
                assertThat(refused.headers().firstValue("Content-Type"))
                        .as(path)
                        .hasValue("application/json");
                JsonNode error = JSON.readTree(refused.body());
                assertThat(error.get("status").asInt()).isEqualTo(403);
                assertThat(error.get("error").asText()).isEqualTo("client certificate required");
            }

            HttpClient identified = withClientCertificate();
            for (String path : List.of("/healthz", "/readyz", "/metrics", "/admin/", "/api/v1/summary")) {
                assertThat(get(identified, https(provider, path)).statusCode())
                        .as(path)
                        .isEqualTo(200);
            }
            assertThat(get(identified, https(provider, "/metrics")).body()).contains("bigfleet_proxmox_");
            assertThat(get(identified, https(provider, "/api/v1/nope")).statusCode())
                    .as("a client with a certificate meets the usual 404")
                    .isEqualTo(404);

            // openssl presents the certificate it is given, whichever CAs the server names (the JDK
            // client would send none)
            int port = provider.httpPort();
            assertThat(opensslGet(port, certs.clientCert(), certs.clientKey(), "/metrics"))
                    .startsWith("HTTP/1.1 200 ");
            for (String path : List.of("/healthz", "/metrics")) {
                assertThat(opensslGet(port, certs.otherClientCert(), certs.otherClientKey(), path))
                        .as("a certificate another CA signed, on %s", path)
                        .doesNotContain("HTTP/1.1")
                        .containsIgnoringCase("alert");
            }
        }
    }

    /** One GET over {@code openssl s_client} presenting {@code cert}: the answer, or how the handshake failed. */
    private static String opensslGet(int port, Path cert, Path key, String path) throws Exception {
        Process openssl = new ProcessBuilder(
                        "openssl",
                        "s_client",
                        "-quiet",
                        "-tls1_3",
                        "-connect",
                        "127.0.0.1:" + port,
                        "-CAfile",
                        certs.caCert().toString(),
                        "-cert",
                        cert.toString(),
                        "-key",
                        key.toString())
                .redirectErrorStream(true)
                .start();
        try (var in = openssl.getOutputStream()) {
            in.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
        }
        String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!openssl.waitFor(30, TimeUnit.SECONDS)) {
            openssl.destroyForcibly();
        }
        // -quiet still prints the verification of the server's chain before the answer
        int answer = output.indexOf("HTTP/1.1 ");
        return answer < 0 ? output : output.substring(answer);
    }

    @Test
    void unusableFilesStopStartupWithOneLineNamingTheFlag() throws Exception {
        Path garbage = dir.resolve("garbage.pem");
        Files.writeString(garbage, "not PEM at all");
        Path rsaStyleKey = dir.resolve("traditional.key");
        Files.writeString(rsaStyleKey, "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
        String cert = certs.serverCert().toString();
        String key = certs.serverKey().toString();
        List<List<String>> commandLines = List.of(
                List.of("--metrics-tls-cert", garbage.toString(), "--metrics-tls-key", key),
                List.of("--metrics-tls-cert", key, "--metrics-tls-key", key),
                List.of("--metrics-tls-cert", cert, "--metrics-tls-key", garbage.toString()),
                List.of("--metrics-tls-cert", cert, "--metrics-tls-key", rsaStyleKey.toString()),
                List.of("--metrics-tls-cert", cert, "--metrics-tls-key", cert),
                List.of(
                        "--metrics-tls-cert",
                        cert,
                        "--metrics-tls-key",
                        certs.clientKey().toString()),
                List.of("--metrics-tls-cert", cert, "--metrics-tls-key", key, "--metrics-tls-ca", garbage.toString()),
                List.of("--metrics-tls-cert", cert, "--metrics-tls-key", key, "--metrics-tls-ca", key));
        List<String> expected = List.of(
                "--metrics-tls-cert " + garbage + ": no PEM certificate",
                "--metrics-tls-cert " + key + ": no PEM certificate",
                "--metrics-tls-key " + garbage + ": not an unencrypted PKCS#8 PEM private key",
                "--metrics-tls-key " + rsaStyleKey + ": not an unencrypted PKCS#8 PEM private key",
                "--metrics-tls-key " + cert + ": not an unencrypted PKCS#8 PEM private key",
                "--metrics-tls-cert/--metrics-tls-key: a TLS 1.3 handshake with them fails (is the key the certificate's own?): ",
                "--metrics-tls-ca " + garbage + ": no PEM certificate",
                "--metrics-tls-ca " + key + ": no PEM certificate");
        String keyText = Files.readString(certs.serverKey());
        for (int i = 0; i < commandLines.size(); i++) {
            List<String> flags = commandLines.get(i);
            assertThatThrownBy(() -> start(flags.toArray(String[]::new)))
                    .as("%s", flags)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith(expected.get(i))
                    .satisfies(e -> assertThat(e.getMessage())
                            .doesNotContain("\n")
                            .doesNotContain(keyText.lines().skip(1).findFirst().orElseThrow()));
        }
    }
}
