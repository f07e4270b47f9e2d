package dev.bigfleet.proxmox.server.metrics;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;

/** {@code GET /metrics}: the registry in the Prometheus text format (0.0.4). */
@Path("metrics")
public final class MetricsResource {
    private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

    private final ProviderMetrics metrics;

    @Inject
    public MetricsResource(ProviderMetrics metrics) {
        this.metrics = metrics;
    }

    @GET
    public Response scrape() {
        StreamingOutput body = out -> WRITER.write(out, metrics.scrape());
        return Response.ok(body, WRITER.getContentType()).build();
    }
}
