package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.server.http.ApiError;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The admin page's JSON, under {@code /api/v1/}. Every endpoint is a GET over the engine's
 * snapshots; {@link GetOnlyFilter} turns every other method into 405.
 */
@Path("api/v1")
@Produces(MediaType.APPLICATION_JSON)
public final class AdminApiResource {
    static final int DEFAULT_FAILURES = 50;

    private final InventoryView view;
    private final MachineView machine;
    private final StatusView status;

    @Inject
    public AdminApiResource(InventoryView view, MachineView machine, StatusView status) {
        this.view = view;
        this.machine = machine;
        this.status = status;
    }

    @GET
    @Path("status")
    public ProviderStatus status() {
        return status.status();
    }

    @GET
    @Path("summary")
    public Summary summary() {
        return view.summary();
    }

    @GET
    @Path("machines")
    public MachinePage machines(
            @QueryParam("state") String state,
            @QueryParam("zone") String zone,
            @QueryParam("instance_type") String instanceType,
            @QueryParam("q") String text,
            @QueryParam("sort") String sort,
            @QueryParam("order") String order,
            @QueryParam("offset") String offset,
            @QueryParam("limit") String limit) {
        MachineQuery query;
        try {
            query = MachineQuery.parse(state, zone, instanceType, text, sort, order, offset, limit);
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(
                    ApiError.of(Response.Status.BAD_REQUEST, e.getMessage()).toResponse());
        }
        return view.machines(query);
    }

    /**
     * One machine with its recent operations. Its id holds slashes, sent as they are or encoded
     * ({@code %2F}, as a client library encodes a path segment): either way the path's rest is the id.
     */
    @GET
    @Path("machines/{id: .+}")
    public Response machine(@PathParam("id") String id) {
        try {
            return machine.machine(id)
                    .map(detail -> Response.ok(detail).build())
                    .orElseGet(() -> ApiError.of(Response.Status.NOT_FOUND, "machine not found: " + id)
                            .toResponse());
        } catch (StoreException e) {
            return ApiError.of(Response.Status.SERVICE_UNAVAILABLE, e.getMessage())
                    .toResponse();
        }
    }

    @GET
    @Path("offerings")
    public List<OfferingRow> offerings() {
        return view.offerings();
    }

    @GET
    @Path("instance-types")
    public List<InstanceTypeRow> instanceTypes() {
        return view.instanceTypes();
    }

    @GET
    @Path("nodes")
    public NodeList nodes() {
        return view.nodes();
    }

    @GET
    @Path("failures")
    public List<MachineRow> failures(@QueryParam("limit") String limit) {
        int n = DEFAULT_FAILURES;
        if (limit != null && !limit.isBlank()) {
            try {
                n = Math.max(1, Math.min(MachineQuery.MAX_LIMIT, Integer.parseInt(limit.trim())));
            } catch (NumberFormatException e) {
                throw new BadRequestException(ApiError.of(Response.Status.BAD_REQUEST, "limit: not a whole number")
                        .toResponse());
            }
        }
        return view.failures(n);
    }

    @GET
    @Path("changes")
    public Changes changes(@QueryParam("since") String since) {
        return view.changes(since);
    }
}
