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
    private final UploadApi upload;
    private final TokenCheck tokens;

    ApiHandler(Cluster cluster, ApiRoutes routes) {
        this.cluster = cluster;
        this.router = routes.router();
        this.upload = routes.upload();
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
        boolean isUpload = rawPath.startsWith(PREFIX + "/") && UploadApi.isUpload(method, segments);
        byte[] body = isUpload ? new byte[0] : readBody(request);
        boolean drop = false;
        Duration late = Duration.ZERO;
        int status;
        byte[] payload;
        boolean plain = false;
        Map<String, List<String>> sent = Map.of();
        try {
            if ((method.equals("GET") || method.equals("DELETE") || method.equals("HEAD")) && body.length > 0) {
                throw Errors.unexpectedContent(method);
            }
            if (!rawPath.startsWith(PREFIX + "/") && !rawPath.equals(PREFIX)) {
                throw Errors.notImplemented(method, rawPath);
            }
            authenticate(request.getHeaders().get(HttpHeader.AUTHORIZATION));
            Params uploaded = isUpload ? receiveUpload(request, segments, query) : null;
            if (isUpload && uploaded == null) {
                // pveproxy gives up on the request without an answer
                request.getConnectionMetaData().getConnection().getEndPoint().close();
                callback.succeeded();
                synchronized (cluster) {
                    cluster.requests.add(
                            new RecordedRequest(method, shownPath, query == null ? "" : query, 0, Map.of()));
                }
                return true;
            }
            sent = isUpload ? sentWith(uploaded) : sent(method, query, body, contentType(request));
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
                data = isUpload
                        ? dispatch(method, segments, shownPath, uploaded)
                        : dispatch(method, segments, shownPath, query, body, contentType(request));
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
            payload = e.emptyBody()
                    ? new byte[0]
                    : e.plainText() ? e.getMessage().getBytes(StandardCharsets.UTF_8) : errorBody(e);
            plain = e.plainText();
        } catch (RuntimeException e) {
            LOG.warn("simulator failure on {} {}", method, shownPath, e);
            status = 500;
            payload = errorBody(Errors.handler("internal simulator error: " + e));
        }
        synchronized (cluster) {
            cluster.requests.add(
                    new RecordedRequest(method, shownPath, query == null ? "" : query, drop ? 0 : status, sent));
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
        if (payload.length > 0 && !plain) {
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

    /**
     * pveproxy's way with an upload: the upload privilege is checked with the authentication, before
     * the body is read (a refusal is delayed and has no body, as an authentication failure); a body
     * must be {@code multipart/form-data} ({@link UploadForm}) and is put into a temporary file whose
     * name the call gets as {@code tmpfilename}. A request without a body is an ordinary call.
     *
     * @return the call's parameters, or null when pveproxy gives no answer at all (a body of another
     *     type, or a {@code tmpfilename} in the query)
     */
    private Params receiveUpload(Request request, List<String> segments, String query) throws java.io.IOException {
        String storage = segments.get(3);
        try {
            synchronized (cluster) {
                cluster.acl.require("/storage/" + storage, "Datastore.AllocateTemplate");
            }
        } catch (ApiException e) {
            sleepQuietly(cluster.config.authFailureDelay());
            throw new ApiException(e.status(), e.getMessage(), null, true);
        }
        Params params = Params.fromForm(query);
        if (request.getLength() <= 0) {
            return params;
        }
        String boundary = null;
        String[] parts = contentType(request) == null
                ? new String[0]
                : contentType(request).split("\\s*[;,]\\s*", -1);
        for (int i = 1; i < parts.length; i++) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*boundary\\s*=\\s*(\\S+?)\\s*")
                    .matcher(parts[i]);
            if (m.matches()) {
                boundary = m.group(1);
                break;
            }
        }
        if (boundary == null
                || !parts[0].equals("multipart/form-data")
                || params.asMap().containsKey("tmpfilename")) {
            return null;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        String tmpfilename;
        try (InputStream in = Request.asInputStream(request)) {
            tmpfilename = upload.receive(in, boundary, fields);
        }
        for (Map.Entry<String, String> f : fields.entrySet()) {
            params = params.with(f.getKey(), f.getValue());
        }
        return params.with("tmpfilename", tmpfilename);
    }

    private static void sleepQuietly(Duration d) {
        if (d.isZero()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Object dispatch(
            String method, List<String> segments, String shownPath, String query, byte[] body, String contentType) {
        Params params = Params.fromForm(query);
        if (method.equals("POST") || method.equals("PUT")) {
            params = bodyParams(body, contentType).overriddenBy(params);
        }
        return dispatch(method, segments, shownPath, params);
    }

    private Object dispatch(String method, List<String> segments, String shownPath, Params given) {
        Router.Match match = router.find(method, segments);
        if (match == null) {
            throw Errors.notImplemented(method, shownPath);
        }
        Params pathParams = match.pathParams();
        String node = pathParams.asMap().containsKey("node")
                ? pathParams.asMap().get("node").get(0)
                : null;
        Params params = given.overriddenBy(pathParams);
        // Proxmox checks the declared permissions first, then forwards to the node, then validates.
        match.route().permission().check(cluster.acl, params.asMap());
        if (node != null && match.route().proxied()) {
            cluster.reachableNode(node);
        }
        ValidParams valid = match.route().schema().validate(params);
        return match.route().endpoint().handle(new Call(method, shownPath, valid));
    }

    /** The parameters the client sent in the query and, for a POST or PUT, the body (empty when unreadable). */
    private static Map<String, List<String>> sent(String method, String query, byte[] body, String contentType) {
        Params params = Params.fromForm(query);
        if (method.equals("POST") || method.equals("PUT")) {
            try {
                params = bodyParams(body, contentType).overriddenBy(params);
            } catch (ApiException e) {
                return Map.of();
            }
        }
        return params.asMap();
    }

    /** An upload's query and form fields, without the {@code tmpfilename} pveproxy adds. */
    private static Map<String, List<String>> sentWith(Params uploaded) {
        Map<String, List<String>> out = new LinkedHashMap<>(uploaded.asMap());
        out.remove("tmpfilename");
        return out;
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
