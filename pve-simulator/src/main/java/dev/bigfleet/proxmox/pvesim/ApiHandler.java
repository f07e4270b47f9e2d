package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side: rejects bodies on GET/DELETE, checks the API token, applies request faults,
 * parses parameters (query, form or JSON), routes, and wraps results in {@code {"data": ...}}.
 */
final class ApiHandler extends Handler.Abstract {
    private static final Logger LOG = LoggerFactory.getLogger(ApiHandler.class);
    private static final String PREFIX = "/api2/json";
    static final ObjectMapper JSON = new ObjectMapper();

    private final Cluster cluster;
    private final Router router;
    private final TokenCheck tokens;

    ApiHandler(Cluster cluster, Router router) {
        this.cluster = cluster;
        this.router = router;
        this.tokens = new TokenCheck(cluster.config.token());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String method = request.getMethod();
        String rawPath = request.getHttpURI().getPath();
        String query = request.getHttpURI().getQuery();
        String path = rawPath.startsWith(PREFIX) ? rawPath.substring(PREFIX.length()) : rawPath;
        List<String> segments = segments(path);
        String shownPath = "/" + String.join("/", segments);
        byte[] body = readBody(request);
        boolean drop = false;
        Duration late = Duration.ZERO;
        int status;
        byte[] payload;
        try {
            if ((method.equals("GET") || method.equals("DELETE") || method.equals("HEAD")) && body.length > 0) {
                throw Errors.unexpectedContent(method);
            }
            if (!rawPath.startsWith(PREFIX + "/") && !rawPath.equals(PREFIX)) {
                throw Errors.notImplemented(method, rawPath);
            }
            authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION));
            Object data;
            Supplier<String> commandLine = () -> commandLine(query, body, contentType(request));
            synchronized (cluster) {
                FaultState.RequestFault f = cluster.faults.takeRequestFault(method, shownPath, false, commandLine);
                if (f != null) {
                    throw new ApiException(f.status, f.message, null, f.status >= 595);
                }
                FaultState.RequestFault after = cluster.faults.takeRequestFault(method, shownPath, true, commandLine);
                drop = after != null && after.drop;
                late = after != null && after.delay != null ? after.delay : Duration.ZERO;
                data = dispatch(method, segments, shownPath, query, body, contentType(request));
            }
            if (data instanceof Unlocked rest) {
                // talking to a guest takes up to seconds: the rest of the call runs without the lock
                data = rest.run();
            }
            status = 200;
            Map<String, Object> envelope = new LinkedHashMap<>();
            envelope.put("data", data);
            payload = JSON.writeValueAsBytes(envelope);
        } catch (ApiException e) {
            status = e.status();
            payload = e.emptyBody() ? new byte[0] : errorBody(e);
        } catch (RuntimeException e) {
            LOG.warn("simulator failure on {} {}", method, shownPath, e);
            status = 500;
            payload = errorBody(Errors.handler("internal simulator error: " + e));
        }
        synchronized (cluster) {
            cluster.requests.add(new RecordedRequest(method, shownPath, query == null ? "" : query, drop ? 0 : status));
        }
        if (drop) {
            // The effect happened; the client only loses the answer.
            request.getConnectionMetaData().getConnection().getEndPoint().close();
            callback.succeeded();
            return true;
        }
        if (!late.isZero()) {
            Thread.sleep(late.toMillis());
        }
        response.setStatus(status);
        if (payload.length > 0) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json;charset=UTF-8");
        }
        if (status >= 400) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, payload.length);
        response.write(true, ByteBuffer.wrap(payload), callback);
        return true;
    }

    private void authenticate(String header) {
        ApiException failure = tokens.check(header);
        if (failure == null) {
            return;
        }
        long delay = cluster.config.authFailureDelay().toMillis();
        if (delay > 0) {
            try {
                Thread.sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        throw failure;
    }

    private Object dispatch(
            String method, List<String> segments, String shownPath, String query, byte[] body, String contentType) {
        Router.Match match = router.find(method, segments);
        if (match == null) {
            throw Errors.notImplemented(method, shownPath);
        }
        Params pathParams = match.pathParams();
        String node = pathParams.asMap().containsKey("node")
                ? pathParams.asMap().get("node").get(0)
                : null;
        Params params = Params.fromForm(query);
        if (method.equals("POST") || method.equals("PUT")) {
            params = bodyParams(body, contentType).overriddenBy(params);
        }
        params = params.overriddenBy(pathParams);
        // Proxmox checks the declared permissions first, then forwards to the node, then validates.
        match.route().permission().check(cluster.acl, params.asMap());
        if (node != null) {
            cluster.reachableNode(node);
        }
        ValidParams valid = match.route().schema().validate(params);
        return match.route().endpoint().handle(new Call(method, shownPath, valid));
    }

    /** The request's {@code command} values joined with single spaces (empty when it has none or cannot be read). */
    private static String commandLine(String query, byte[] body, String contentType) {
        Params params;
        try {
            params = bodyParams(body, contentType).overriddenBy(Params.fromForm(query));
        } catch (ApiException e) {
            return "";
        }
        return String.join(" ", params.asMap().getOrDefault("command", List.of()));
    }

    private static Params bodyParams(byte[] body, String contentType) {
        if (body.length == 0) {
            return Params.empty();
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (contentType != null
                && contentType.toLowerCase(java.util.Locale.ROOT).startsWith("application/json")) {
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw new ApiException(400, "malformed JSON body", null, false);
            }
            if (node == null || node.isNull()) {
                return Params.empty();
            }
            if (!node.isObject()) {
                throw new ApiException(400, "JSON body must be an object", null, false);
            }
            return Params.fromJson(node);
        }
        return Params.fromForm(text);
    }

    private static String contentType(Request request) {
        return request.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    private static byte[] errorBody(ApiException e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("data", null);
        m.put("message", e.getMessage() + "\n");
        if (!e.errors().isEmpty()) {
            m.put("errors", e.errors());
        }
        try {
            return JSON.writeValueAsBytes(m);
        } catch (JsonProcessingException x) {
            throw new IllegalStateException(x);
        }
    }

    private static byte[] readBody(Request request) throws java.io.IOException {
        try (InputStream in = Request.asInputStream(request)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }

    /** Path segments, each percent-decoded (a {@code +} stays a plus in a path). */
    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/", -1)) {
            if (!s.isEmpty()) {
                out.add(URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
