package dev.bigfleet.proxmox.server.http;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every failure a request meets in the resources or the routing, as the caller reads it: an {@link
 * ApiError} under {@code /api/}; elsewhere a plain-text 404 or 500, and the routing's own answer for
 * the rest (a 405 with its {@code Allow}). Never the servlet container's HTML page. A failure no
 * resource expected is a 500 whose cause goes to the log, not to the caller.
 */
@Provider
public final class ErrorMapper implements ExceptionMapper<Throwable> {
    private static final Logger log = LoggerFactory.getLogger(ErrorMapper.class);

    @Context
    private UriInfo uri;

    @Context
    private Request request;

    @Override
    public Response toResponse(Throwable failure) {
        String path = "/" + uri.getPath();
        boolean api = ApiError.covers(path);
        if (failure instanceof WebApplicationException refused) {
            Response answer = refused.getResponse();
            int status = answer.getStatus();
            if (api) {
                ApiError error = status == 404 ? new ApiError(404, "not found: " + path) : ApiError.of(status);
                Response.ResponseBuilder json = Response.fromResponse(error.toResponse());
                String allow = answer.getHeaderString(HttpHeaders.ALLOW);
                if (allow != null) {
                    json.header(HttpHeaders.ALLOW, allow);
                }
                return json.build();
            }
            return status == 404 ? plain(404, "not found\n") : answer;
        }
        log.error("{} {}: unexpected failure", request.getMethod(), path, failure);
        return api ? ApiError.of(500).toResponse() : plain(500, "internal error\n");
    }

    private static Response plain(int status, String text) {
        return Response.status(status)
                .type("text/plain; charset=utf-8")
                .entity(text)
                .build();
    }
}
