package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.server.http.ApiError;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

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
            request.abortWith(Response.fromResponse(
                            ApiError.of(Response.Status.METHOD_NOT_ALLOWED, "read-only: only GET is allowed")
                                    .toResponse())
                    .header(HttpHeaders.ALLOW, "GET")
                    .build());
        }
    }
}
