package dev.bigfleet.proxmox.server.http;

import dev.bigfleet.proxmox.server.serving.ServingState;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

/** Liveness and readiness probes. */
@Path("/")
public final class ProbeResource {
    private final ServingState serving;

    @Inject
    public ProbeResource(ServingState serving) {
        this.serving = serving;
    }

    @GET
    @Path("healthz")
    @Produces("text/plain; charset=utf-8")
    public String healthz() {
        return "ok\n";
    }

    @GET
    @Path("readyz")
    @Produces("text/plain; charset=utf-8")
    public Response readyz() {
        return serving.isReady()
                ? Response.ok("ready\n").build()
                : Response.status(Response.Status.SERVICE_UNAVAILABLE)
                        .entity("not ready: " + serving.notReadyReason() + "\n")
                        .build();
    }
}
