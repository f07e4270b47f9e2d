package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.bigfleet.proxmox.backend.proxmox.tls.ApiTrust;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.CallOutcome;
import dev.failsafe.CircuitBreaker;
import dev.failsafe.CircuitBreakerOpenException;
import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import org.apache.hc.client5.http.entity.mime.HttpMultipartMode;
import org.apache.hc.client5.http.entity.mime.MultipartEntityBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends {@link ApiCall}s: token header, verified TLS, the {@code {"data": …}} envelope and Proxmox's
 * error shapes, wrapped in Failsafe policies (a timeout per attempt, retries with backoff and jitter
 * for transient failures of calls that may be repeated, and one circuit breaker for the cluster).
 * Every attempt is reported to the {@link ApiCallRecorder} (an expected "not yet" as waiting), and
 * whether the API answers is kept for {@link #status()}.
 */
public final class PveTransport {
    private static final Logger log = LoggerFactory.getLogger(PveTransport.class);

    private final URI apiRoot;
    private final ApiToken token;
    private final SSLContext tls;
    private final HttpClient pooled;
    private final ObjectMapper json;
    private final ApiCallRecorder recorder;
    private final TransportPolicy policy;
    private final CircuitBreaker<JsonNode> breaker;
    private final Timeout<JsonNode> attemptTimeout;
    private final AtomicReference<OnceClient> onceClient = new AtomicReference<>();
    private final ApiReachability reachability = new ApiReachability(Clock.systemUTC());

    /** The client for calls that must not run twice, and when it last sent one. */
    private static final class OnceClient {
        final HttpClient client;
        volatile long lastUsed = System.nanoTime();

        OnceClient(HttpClient client) {
            this.client = client;
        }
    }

    /**
     * A connection idle this long may already be closed by the server; a call that must not run
     * twice is not sent over one. Servers keep idle connections open for seconds, not less.
     */
    static final Duration ONCE_IDLE_LIMIT = Duration.ofSeconds(2);

    /** @param apiRoot the API root, e.g. {@code https://pve1:8006/api2/json} */
    public PveTransport(
            URI apiRoot,
            ApiToken token,
            ApiTrust trust,
            ObjectMapper json,
            ApiCallRecorder recorder,
            TransportPolicy policy) {
        this.apiRoot = Objects.requireNonNull(apiRoot, "apiRoot");
        this.token = Objects.requireNonNull(token, "token");
        this.tls = trust.sslContext();
        this.json = Objects.requireNonNull(json, "json");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.pooled = newClient();
        this.breaker = CircuitBreaker.<JsonNode>builder()
                .handleIf((result, failure) ->
                        failure instanceof PveApiException && FailureClassifier.unreachable((PveApiException) failure))
                .withFailureThreshold(policy.breakerThreshold())
                .withDelay(policy.breakerDelay())
                .withSuccessThreshold(1)
                .onOpen(e -> log.warn(
                        "Proxmox API unreachable: failing calls fast for {}s",
                        policy.breakerDelay().toSeconds()))
                .onClose(e -> log.info("Proxmox API reachable again"))
                .build();
        // a backstop: the request timeout below is what normally ends a slow exchange
        this.attemptTimeout = Timeout.<JsonNode>builder(policy.requestTimeout().plusSeconds(5))
                .withInterrupt()
                .build();
    }

    public URI apiRoot() {
        return apiRoot;
    }

    /**
     * Sends the call (retrying as its safety allows) and returns the envelope's {@code data}. A
     * failure says whether it is {@link PveApiException#isTransient() transient}.
     */
    JsonNode call(ApiCall call) {
        try {
            return Failsafe.with(retryPolicy(call.safety()), breaker, attemptTimeout)
                    .get(() -> attempt(call));
        } catch (PveApiException e) {
            if (e.kind() == PveApiException.Kind.INTERRUPTED) {
                Thread.currentThread().interrupt();
                throw e;
            }
            throw gaveUp(call, e);
        } catch (CircuitBreakerOpenException e) {
            reachability.breakerOpen();
            throw PveApiException.circuitOpen(call.op(), policy.breakerDelay());
        } catch (TimeoutExceededException e) {
            throw gaveUp(
                    call,
                    PveApiException.transport(
                            call.op(),
                            PveApiException.Kind.TIMEOUT,
                            "no answer within " + policy.requestTimeout().toSeconds() + "s",
                            e));
        } catch (FailsafeException e) {
            if (e.getCause() instanceof InterruptedException) {
                Thread.currentThread().interrupt();
                throw PveApiException.transport(call.op(), PveApiException.Kind.INTERRUPTED, "interrupted", e);
            }
            throw gaveUp(
                    call,
                    PveApiException.transport(
                            call.op(), PveApiException.Kind.TRANSPORT, String.valueOf(e.getMessage()), e));
        }
    }

    /** Whether the API answers, since when, and whether the breaker fails calls fast. */
    public ApiStatus status() {
        return reachability.status(breaker.isOpen());
    }

    /** The call's final failure, classified; one the API did not answer makes it unreachable. */
    private PveApiException gaveUp(ApiCall call, PveApiException e) {
        reachability.callGaveUp(e);
        return e.classified(FailureClassifier.transientFor(e, call.safety()));
    }

    private RetryPolicy<JsonNode> retryPolicy(CallSafety safety) {
        return RetryPolicy.<JsonNode>builder()
                .handleIf((result, failure) -> retryable(failure, safety))
                .withBackoff(policy.backoffMin(), policy.backoffMax())
                .withJitter(0.25)
                .withMaxRetries(policy.maxRetries())
                .withMaxDuration(policy.maxRetryTime())
                .onRetry(e -> log.debug(
                        "retrying Proxmox call after: {}",
                        e.getLastException() == null
                                ? "no result"
                                : e.getLastException().getMessage()))
                .build();
    }

    private static boolean retryable(Throwable failure, CallSafety safety) {
        if (failure instanceof PveApiException) {
            return FailureClassifier.retryable((PveApiException) failure, safety);
        }
        return failure instanceof TimeoutExceededException && safety == CallSafety.REPEATABLE;
    }

    private JsonNode attempt(ApiCall call) {
        HttpRequest request = request(call);
        HttpClient client = call.safety() == CallSafety.ONCE && !call.method().equals("GET") ? onceClient() : pooled;
        long start = System.nanoTime();
        CallOutcome outcome = CallOutcome.ERROR;
        try {
            HttpResponse<String> response =
                    client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (!unavailable(response.statusCode())) {
                reachability.answered();
            }
            JsonNode data;
            try {
                data = envelope(call, response);
            } catch (PveApiException e) {
                outcome = call.notYet().failure(e) ? CallOutcome.WAITING : CallOutcome.ERROR;
                throw reachability.attemptFailed(e);
            }
            outcome = call.notYet().answer(data) ? CallOutcome.WAITING : CallOutcome.SUCCESS;
            return data;
        } catch (IOException e) {
            throw reachability.attemptFailed(transportFailure(call, e));
        } catch (InterruptedException e) {
            throw PveApiException.transport(call.op(), PveApiException.Kind.INTERRUPTED, "interrupted", e);
        } finally {
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            try {
                recorder.record(call.op(), outcome, took);
            } catch (RuntimeException e) {
                log.debug("API call recorder failed", e);
            }
        }
    }

    /** A gateway's or a server's "cannot serve now": not an answer from the API. */
    private static boolean unavailable(int status) {
        return status == 502 || status == 503 || status == 504;
    }

    private HttpRequest request(ApiCall call) {
        String target = apiRoot + call.path();
        if (call.paramsInQuery() && !call.params().isEmpty()) {
            target += "?" + call.params().encode();
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(target))
                .timeout(policy.requestTimeout())
                .header("Authorization", token.authorization())
                .header("Accept", "application/json");
        switch (call.method()) {
            case "GET":
                return b.GET().build();
            case "DELETE":
                // Proxmox answers 501 to any DELETE that carries a body
                return b.DELETE().build();
            default:
                if (call.file().isPresent()) {
                    return multipart(b, call.params(), call.file().get());
                }
                String form = call.params().encode();
                return b.header("Content-Type", "application/x-www-form-urlencoded")
                        .method(call.method(), HttpRequest.BodyPublishers.ofString(form, StandardCharsets.UTF_8))
                        .build();
        }
    }

    /**
     * A POST whose body is {@code multipart/form-data}: the params first, then the file, the order
     * pveproxy reads an upload in (it streams the file to a temporary file as it arrives).
     */
    private static HttpRequest multipart(HttpRequest.Builder b, FormParams params, FilePart file) {
        MultipartEntityBuilder body = MultipartEntityBuilder.create().setMode(HttpMultipartMode.STRICT);
        for (Map.Entry<String, String> e : params.entries()) {
            body.addTextBody(e.getKey(), e.getValue(), ContentType.TEXT_PLAIN.withCharset(StandardCharsets.UTF_8));
        }
        body.addBinaryBody(file.field(), file.content(), ContentType.APPLICATION_OCTET_STREAM, file.filename());
        HttpEntity entity = body.build();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            entity.writeTo(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("a multipart body in memory could not be written", e);
        }
        return b.header("Content-Type", entity.getContentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes.toByteArray()))
                .build();
    }

    private JsonNode envelope(ApiCall call, HttpResponse<String> response) {
        int status = response.statusCode();
        String body = response.body() == null ? "" : response.body();
        log.debug("proxmox {} {} -> {}", call.method(), call.path(), status);
        if (status >= 200 && status < 300) {
            if (body.isBlank()) {
                return NullNode.getInstance();
            }
            try {
                JsonNode root = json.readTree(body);
                JsonNode data = root == null ? null : root.get("data");
                return data == null ? NullNode.getInstance() : data;
            } catch (JsonProcessingException e) {
                throw PveApiException.transport(
                        call.op(),
                        PveApiException.Kind.MALFORMED,
                        "HTTP " + status + " with a body that is not JSON",
                        e);
            }
        }
        String message = "";
        Map<String, String> errors = new LinkedHashMap<>();
        if (!body.isBlank()) {
            try {
                JsonNode root = json.readTree(body);
                if (root != null && root.hasNonNull("message")) {
                    message = root.get("message").asText().strip();
                }
                if (root != null && root.has("errors") && root.get("errors").isObject()) {
                    root.get("errors")
                            .properties()
                            .forEach(f ->
                                    errors.put(f.getKey(), f.getValue().asText().strip()));
                }
            } catch (JsonProcessingException e) {
                // a handler crash can answer with plain text: keep its first line
                message = firstLine(body);
            }
        }
        throw PveApiException.http(call.op(), status, message, errors);
    }

    private static String firstLine(String text) {
        String line = text.strip().lines().findFirst().orElse("");
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

    private PveApiException transportFailure(ApiCall call, IOException e) {
        if (e instanceof HttpConnectTimeoutException || e instanceof ConnectException) {
            return PveApiException.transport(
                    call.op(),
                    PveApiException.Kind.CONNECT,
                    "cannot connect to " + apiRoot.getHost() + ":" + port() + ": " + describe(e),
                    e);
        }
        if (e instanceof HttpTimeoutException) {
            return PveApiException.transport(
                    call.op(),
                    PveApiException.Kind.TIMEOUT,
                    "no answer within " + policy.requestTimeout().toSeconds() + "s",
                    e);
        }
        if (e instanceof SSLHandshakeException && hasCause(e, CertificateException.class)) {
            return PveApiException.transport(
                    call.op(),
                    PveApiException.Kind.TLS,
                    "TLS: the Proxmox API's certificate was refused: " + TlsFailure.explain(e, apiRoot.getHost()),
                    e);
        }
        return PveApiException.transport(
                call.op(),
                PveApiException.Kind.TRANSPORT,
                "connection to " + apiRoot.getHost() + ":" + port() + " failed: " + describe(e),
                e);
    }

    private int port() {
        return apiRoot.getPort() < 0 ? 443 : apiRoot.getPort();
    }

    private static String describe(Throwable e) {
        String m = e.getMessage();
        if (m == null && e.getCause() != null) {
            m = e.getCause().getMessage();
        }
        return m == null ? e.getClass().getSimpleName() : m;
    }

    private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The client for clones and guest execs: a pooled connection the server closed while it sat
     * idle fails only after the request was written, which leaves such a call's outcome unknown.
     * So these calls never reuse a connection that sat idle; while they come in quick succession
     * they share one.
     */
    private HttpClient onceClient() {
        long now = System.nanoTime();
        OnceClient current = onceClient.get();
        if (current == null || now - current.lastUsed > ONCE_IDLE_LIMIT.toNanos()) {
            current = new OnceClient(newClient());
            onceClient.set(current);
        }
        current.lastUsed = now;
        return current.client;
    }

    private HttpClient newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .sslContext(tls)
                .sslParameters(ApiTrust.parameters())
                .connectTimeout(policy.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                // environment proxies are not consulted: the API is addressed directly
                .proxy(HttpClient.Builder.NO_PROXY)
                .build();
    }
}
