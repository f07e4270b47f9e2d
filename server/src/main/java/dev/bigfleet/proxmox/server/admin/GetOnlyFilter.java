package dev.bigfleet.proxmox.server.admin;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * The admin surface is read-only: under {@code /api/} and {@code /admin/} any method but GET is
 * answered 405, before routing, so not even Jersey's automatic OPTIONS and HEAD answer.
 */
@PreMatching
public final class GetOnlyFilter implements ContainerRequestFilter {
    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        boolean readOnly =
                path.equals("api") || path.startsWith("api/") || path.equals("admin") || path.startsWith("admin/");
        if (readOnly && !"GET".equals(request.getMethod())) {
            request.abortWith(Response.status(Response.Status.METHOD_NOT_ALLOWED)
                    .header(HttpHeaders.ALLOW, "GET")
                    .type(MediaType.APPLICATION_JSON)
                    .entity(Map.of("error", "read-only: only GET is allowed"))
                    .build());
        }
    }
}
