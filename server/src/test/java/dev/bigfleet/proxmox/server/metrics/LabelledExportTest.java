package dev.bigfleet.proxmox.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LabelledExportTest {
    private static final MetricFamily CALLS = MetricFamily.counter("t_calls_total", "Calls.", "op");
    private static final MetricFamily SIZE = MetricFamily.gauge("t_size", "Size.", "zone", "type");
    private static final MetricFamily LATENCY =
            MetricFamily.histogram("t_latency_seconds", "Latency.", new Buckets(0.1, 1), "op");

    private static String export(SeriesRegistry registry) throws Exception {
        PrometheusRegistry prometheus = new PrometheusRegistry();
        prometheus.register(new LabelledExport(registry));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, prometheus.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void seriesOfOneFamilyShareANameAndKeepTheirLabelsEvenWithDots() throws Exception {
        SeriesRegistry registry = new SeriesRegistry();
        registry.counter(CALLS, "GET /nodes").inc(2);
        registry.counter(CALLS, "GET_/nodes").inc();
        registry.gauge(SIZE, () -> 3, "a.b", "pve.large");
        registry.gauge(SIZE, () -> 4, "a_b", "pve.large");

        String text = export(registry);

        assertThat(text)
                .contains("# TYPE t_calls_total counter\n")
                .contains("t_calls_total{op=\"GET /nodes\"} 2.0\n")
                .contains("t_calls_total{op=\"GET_/nodes\"} 1.0\n")
                .contains("# TYPE t_size gauge\n")
                .contains("t_size{type=\"pve.large\",zone=\"a.b\"} 3.0\n")
                .contains("t_size{type=\"pve.large\",zone=\"a_b\"} 4.0\n");
    }

    @Test
    void histogramsHaveCumulativeBucketsUpToInfinity() throws Exception {
        SeriesRegistry registry = new SeriesRegistry();
        BucketHistogram h = registry.histogram(LATENCY, "clone");
        h.observe(0.05);
        h.observe(0.5);
        h.observe(900);

        String text = export(registry);

        assertThat(text)
                .contains("# TYPE t_latency_seconds histogram\n")
                .contains("t_latency_seconds_bucket{op=\"clone\",le=\"0.1\"} 1\n")
                .contains("t_latency_seconds_bucket{op=\"clone\",le=\"1.0\"} 2\n")
                .contains("t_latency_seconds_bucket{op=\"clone\",le=\"+Inf\"} 3\n")
                .contains("t_latency_seconds_count{op=\"clone\"} 3\n")
                .contains("t_latency_seconds_sum{op=\"clone\"} 900.55\n");
    }

    @Test
    void theDropwizardRegistryHoldsEverySeries() {
        SeriesRegistry registry = new SeriesRegistry();
        registry.counter(CALLS, "x").inc();
        registry.histogram(LATENCY, "x");

        assertThat(registry.dropwizard().getCounters()).hasSize(1);
        assertThat(registry.dropwizard().getMetrics()).hasSize(2);
    }
}
