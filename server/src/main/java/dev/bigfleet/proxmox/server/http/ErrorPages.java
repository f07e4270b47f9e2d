package dev.bigfleet.proxmox.server.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Locale;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers the HTTP server gives by itself, before a request reaches any resource: a request it
 * cannot parse, a URI it refuses, headers too large. Under {@code /api/}, and for a request line
 * too malformed to tell its path, that is an {@link ApiError}, whatever the request accepts;
 * elsewhere the server's usual page. Neither carries a stack, an exception's class name or the
 * server software's name.
 */
final class ErrorPages extends ErrorHandler {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The path Jetty gives a request whose request line it could not read at all (a malformed
     * {@code %} escape, a control character): where it was going is unknown, so it may have been
     * under {@code /api/}, and gets the {@link ApiError} shape too.
     */
    static final String UNREAD_PATH = "/badMessage";

    /** Every method gets a body, not just GET, POST and HEAD: a refused PUT is explained too. */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback)
            throws IOException {
        String detail = detail(code, message);
        String path = request.getHttpURI().getPath();
        boolean unreadable = path == null || path.equals(UNREAD_PATH);
        if (!unreadable && !ApiError.covers(path)) {
            super.generateResponse(request, response, code, detail, null, callback);
            return;
        }
        ApiError error = ApiError.of(code);
        if (!detail.equals(HttpStatus.getMessage(code))) {
            error = new ApiError(code, error.error() + ": " + detail);
        }
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(JSON.writeValueAsBytes(error)), callback);
    }

    /** The server's own words for the refusal, unless they name a class (and so the software). */
    private static String detail(int code, String message) {
        if (message == null
                || message.isBlank()
                || message.contains("Exception")
                || message.toLowerCase(Locale.ROOT).contains("jetty")) {
            return HttpStatus.getMessage(code);
        }
        return message.replace('\n', ' ');
    }
}
