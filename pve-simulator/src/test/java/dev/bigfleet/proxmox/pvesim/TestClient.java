package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/** A plain HTTPS client for the tests: trusts only the given CA and verifies the hostname. */
final class TestClient {
    static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http;
    private final URI base;
    private final String authorization;

    record Resp(int status, String text, JsonNode json) {
        JsonNode data() {
            return json.get("data");
        }

        String message() {
            return json == null || json.get("message") == null
                    ? null
                    : json.get("message").asText();
        }

        String error(String param) {
            return json.get("errors").get(param).asText();
        }
    }

    TestClient(URI base, Path caPem, String authorization) {
        this.base = base;
        this.authorization = authorization;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(trusting(caPem))
                .sslParameters(hostnameChecking())
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    static TestClient of(PveSimulator sim) {
        return new TestClient(sim.apiUrl(), sim.caCertificate(), sim.token().authorizationHeader());
    }

    static SSLContext trusting(Path caPem) {
        try (InputStream in = Files.newInputStream(caPem)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static SSLParameters hostnameChecking() {
        SSLParameters p = new SSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        return p;
    }

    HttpClient http() {
        return http;
    }

    Resp get(String path) {
        return send(builder(path).GET());
    }

    Resp delete(String path) {
        return send(builder(path).DELETE());
    }

    /** POST with a form body; pairs are name, value, name, value... */
    Resp post(String path, String... pairs) {
        return send(builder(path)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form(pairs))));
    }

    Resp put(String path, String... pairs) {
        return send(builder(path)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .PUT(HttpRequest.BodyPublishers.ofString(form(pairs))));
    }

    /**
     * An upload as Proxmox's web interface sends it: {@code multipart/form-data} with the form
     * fields (name, value, ...) first and the file last, in a part named {@code fileField}.
     */
    Resp upload(String path, String fileField, String filename, byte[] file, String... fields) {
        String boundary = "----pvesimtest" + Long.toHexString(System.nanoTime());
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < fields.length; i += 2) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fields[i] + "\"\r\n\r\n"
                            + fields[i + 1] + "\r\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + fileField + "\"; filename=\""
                        + filename + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        body.writeBytes(file);
        body.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(builder(path)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
    }

    Resp postJson(String path, String json) {
        return send(builder(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpRequest.Builder builder(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    Resp send(HttpRequest.Builder b) {
        try {
            return sendOrThrow(b);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    Resp sendOrThrow(HttpRequest.Builder b) throws IOException {
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode json = null;
            if (r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
                json = JSON.readTree(r.body());
            }
            return new Resp(r.statusCode(), r.body(), json);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    static String form(String... pairs) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            parts.add(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return String.join("&", parts);
    }

    /** Polls a task on the node named in its UPID until it stops; returns the final status. */
    JsonNode awaitTask(String upid) {
        String node = upid.split(":", -1)[1];
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (System.nanoTime() < deadline) {
            Resp r = get("/nodes/" + node + "/tasks/" + URLEncoder.encode(upid, StandardCharsets.UTF_8) + "/status");
            if (r.status() != 200) {
                throw new IllegalStateException("task status " + r.status() + ": " + r.text());
            }
            if (r.data().get("status").asText().equals("stopped")) {
                return r.data();
            }
            sleep(10);
        }
        throw new IllegalStateException("task " + upid + " still running");
    }

    /** Starts a task and waits for it, returning its exit status. */
    String run(Resp started) {
        if (started.status() != 200) {
            throw new IllegalStateException(started.status() + " " + started.text());
        }
        return awaitTask(started.data().asText()).get("exitstatus").asText();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
