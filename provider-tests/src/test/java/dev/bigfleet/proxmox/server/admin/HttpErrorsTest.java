package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.server.http.ApiError;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Errors over real HTTP: an unknown {@code /api/} path is a JSON 404, any other a plain one, and no
 * response (success, refusal, or a request the HTTP server rejects before routing) names the server
 * software or its version, in a header or a body.
 */
class HttpErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SOFTWARE = List.of("jetty", "eclipse", "jersey", "glassfish", "grizzly");
    private static TestingProvider live;

    @BeforeAll
    static void start() throws Exception {
        live = TestingProvider.builder().flags("--seed-count", "2").build();
    }

    @AfterAll
    static void stop() {
        live.close();
    }

    private static void namesNoSoftware(String what, String headersAndBody) {
        String lower = headersAndBody.toLowerCase(Locale.ROOT);
        assertThat(lower).as(what).doesNotContain("server:");
        for (String name : SOFTWARE) {
            assertThat(lower).as(what).doesNotContain(name);
        }
    }

    private static void namesNoSoftware(String what, HttpResponse<String> r) {
        assertThat(r.headers().firstValue("Server")).as(what).isEmpty();
        assertThat(r.headers().firstValue("X-Powered-By")).as(what).isEmpty();
        namesNoSoftware(what, r.headers().map() + "\n" + r.body());
    }

    @Test
    void anUnknownApiPathIsAJson404AndAnyOtherAPlainOne() throws Exception {
        for (String path : List.of("/api/v1/nope", "/api/v1", "/api/v2/summary", "/api/v1/summary/extra")) {
            HttpResponse<String> r = live.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            isApiError(path, r, 404, "not found: " + path);
            namesNoSoftware(path, r);
        }
        for (String path : List.of("/nope", "/admin/nothing.js", "/metrics/x")) {
            HttpResponse<String> r = live.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(r.body()).as(path).isEqualTo("not found\n");
            namesNoSoftware(path, r);
        }
    }

    @Test
    void successesAndRefusalsNameNoServerSoftware() throws Exception {
        for (String path : List.of("/healthz", "/readyz", "/metrics", "/admin/", "/admin/app.js", "/api/v1/status")) {
            HttpResponse<String> r = live.get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(200);
            assertThat(r.headers().firstValue("Server")).as(path).isEmpty();
        }
        namesNoSoftware("POST /api/v1/summary", live.send("POST", "/api/v1/summary"));
        namesNoSoftware("POST /healthz", live.send("POST", "/healthz"));
        namesNoSoftware("machines?limit=x", live.get("/api/v1/machines?limit=x"));
    }

    /**
     * Requests the HTTP server itself refuses, before any resource sees them: malformed ones get a 4xx,
     * an unknown protocol version a 505.
     */
    @Test
    void requestsRefusedBeforeRoutingNameNoServerSoftwareEither() throws Exception {
        List<String> requests = List.of(
                "GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /healthz HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
                "GET /" + "a".repeat(20_000) + " HTTP/1.1\r\nHost: x\r\n\r\n",
                "BREW /healthz HTCPCP/1.0\r\n\r\n");
        for (String request : requests) {
            String answer = raw(request);
            String what = request.substring(0, Math.min(40, request.length()));
            assertThat(answer).as(what).containsPattern("^HTTP/1\\.1 (4\\d\\d|505) ");
            namesNoSoftware(what, answer);
        }
    }

    /** Asserts the one error shape of {@code /api/}: JSON with exactly {@code status} and {@code error}. */
    private static void isApiError(String what, int status, String contentType, String body, String error)
            throws Exception {
        assertThat(contentType).as(what).isEqualTo("application/json");
        JsonNode json = JSON.readTree(body);
        assertThat(json.size()).as(what + ": " + body).isEqualTo(2);
        assertThat(json.get("status").asInt()).as(what).isEqualTo(status);
        assertThat(json.get("error").asText()).as(what).startsWith(error);
        namesNoSoftware(what, body);
    }

    private static void isApiError(String what, HttpResponse<String> r, int status, String error) throws Exception {
        assertThat(r.statusCode()).as(what).isEqualTo(status);
        isApiError(what, status, r.headers().firstValue("Content-Type").orElse(""), r.body(), error);
    }

    @Test
    void everyErrorTheResourcesGiveUnderApiIsJsonInOneShape() throws Exception {
        isApiError("bad query", live.get("/api/v1/machines?sort=nope"), 400, "sort: ");
        isApiError("bad limit", live.get("/api/v1/failures?limit=x"), 400, "limit: not a whole number");
        isApiError("unknown path", live.get("/api/v1/nope"), 404, "not found: /api/v1/nope");
        isApiError(
                "unknown machine",
                live.get("/api/v1/machines/proxmox%2FOnDemand%2Fnope%2Fx%2F000"),
                404,
                "machine not found: proxmox/OnDemand/nope/x/000");
        HttpResponse<String> post = live.send("POST", "/api/v1/machines");
        isApiError("POST", post, 405, "read-only: only GET is allowed");
        assertThat(post.headers().firstValue("Allow")).hasValue("GET");
        HttpResponse<String> html = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(live.baseUrl() + "/api/v1/summary"))
                                .header("Accept", "text/html")
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        isApiError("Accept: text/html", html, 406, "not acceptable");
    }

    /**
     * Under {@code /api/}, what the HTTP server refuses before routing is JSON in the same shape,
     * whatever the method and whatever the request accepts; so is a request line too malformed to
     * tell its path (a bad {@code %} escape); elsewhere it stays the server's page.
     */
    @Test
    void whatTheServerRefusesBeforeRoutingIsJsonUnderApiToo() throws Exception {
        List<String> requests = List.of(
                "GET /api/v1/machines/%zz HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /api/v1/%2e%2e/admin/ HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n",
                "GET /api/v1/summary/..;/x HTTP/1.1\r\nHost: x\r\n\r\n",
                "PUT /api/v1/machines/%zz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
                "GET /api/v1/summary HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n");
        for (String request : requests) {
            String what = request.substring(0, Math.min(40, request.length()));
            String answer = raw(request);
            Matcher status = Pattern.compile("^HTTP/1\\.1 (\\d{3}) ").matcher(answer);
            assertThat(status.find()).as(what + ": " + answer).isTrue();
            int code = Integer.parseInt(status.group(1));
            assertThat(code).as(what).isBetween(400, 499);
            Matcher type = Pattern.compile("(?im)^Content-Type: *([^\\r;]+)").matcher(answer);
            assertThat(type.find()).as(what + ": " + answer).isTrue();
            String body = answer.substring(answer.indexOf("\r\n\r\n") + 4);
            isApiError(what, code, type.group(1), body, ApiError.of(code).error());
        }
        String outside = raw("GET /admin/%2e%2e/x HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(outside).startsWith("HTTP/1.1 400 ").contains("text/html").doesNotContain("application/json");
        namesNoSoftware("/admin/%2e%2e/x", outside);
    }

    private static String raw(String request) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), live.httpPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void withoutTheAdminUiTheApiStillAnswersAJson404() throws Exception {
        try (TestingProvider off = TestingProvider.builder()
                .flags("--admin-ui=false", "--seed-count", "2")
                .build()) {
            HttpResponse<String> r = off.get("/api/v1/summary");
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(r.body()).get("error").asText()).isEqualTo("not found: /api/v1/summary");
            namesNoSoftware("/api/v1/summary without the admin UI", r);
        }
    }
}
