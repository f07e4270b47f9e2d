package dev.bigfleet.proxmox.server.admin;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;

/**
 * Serves the admin page at {@code /admin/}. Everything is local (no CDN), and the
 * Content-Security-Policy allows scripts, styles, images and fetches from this origin only, with no
 * inline code and no {@code eval}, so injected markup in a machine field could not run; Trusted
 * Types with no policy make every markup sink ({@code innerHTML} and the like) refuse a string, so
 * a value can only ever become text. Nothing may frame the page, and it submits no form.
 */
@Path("admin")
public final class AdminPageResource {
    static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
            + " connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none';"
            + " require-trusted-types-for 'script'; trusted-types 'none'";

    private static final AdminAssets ASSETS = new AdminAssets();

    /** {@code /admin/} is the page; {@code /admin} redirects there so relative asset links resolve. */
    @GET
    public Response index(@Context UriInfo uri) {
        if (!uri.getRequestUri().getRawPath().endsWith("/")) {
            return Response.status(Response.Status.MOVED_PERMANENTLY)
                    .location(URI.create("/admin/"))
                    .build();
        }
        return file("index.html");
    }

    @GET
    @Path("{name}")
    public Response file(@PathParam("name") String name) {
        AdminAssets.Asset asset = ASSETS.get(name).orElseThrow(NotFoundException::new);
        return Response.ok(asset.bytes(), asset.contentType())
                .header("Content-Security-Policy", CSP)
                .header("X-Content-Type-Options", "nosniff")
                .header("X-Frame-Options", "DENY")
                .header("Referrer-Policy", "no-referrer")
                .header("Cache-Control", "no-cache")
                .build();
    }
}
