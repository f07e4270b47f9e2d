package dev.bigfleet.proxmox.server.http;

import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;

/**
 * A 404 as the caller reads it: JSON with an {@code error} under {@code /api/}, plain text elsewhere;
 * never the servlet container's HTML page.
 */
@Provider
public final class NotFoundMapper implements ExceptionMapper<NotFoundException> {
    @Context
    private UriInfo uri;

    @Override
    public Response toResponse(NotFoundException e) {
        String path = uri.getPath();
        if (path.equals("api") || path.startsWith("api/")) {
            return Response.status(Response.Status.NOT_FOUND)
                    .type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "not found: /" + path))
                    .build();
        }
        return Response.status(Response.Status.NOT_FOUND)
                .type("text/plain; charset=utf-8")
                .entity("not found\n")
                .build();
    }
}
