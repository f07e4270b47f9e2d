package dev.bigfleet.proxmox.server.metrics;

import com.codahale.metrics.MetricFilter;
import io.prometheus.metrics.instrumentation.dropwizard.DropwizardExports;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot.HistogramDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exports the {@link SeriesRegistry}: the Prometheus Dropwizard bridge converts each Dropwizard
 * counter and gauge, then the series of one family are gathered under the family's name with
 * their labels. The bridge alone cannot do that here: its glob label mapper splits on dots (and
 * instance types such as {@code pve.large} contain dots), and its 1.4.3 collector rejects two
 * metrics that map to one name. Bucket histograms are not Dropwizard types and are converted
 * directly.
 */
public final class LabelledExport implements MultiCollector {
    private final SeriesRegistry series;
    private final DropwizardExports bridge;

    public LabelledExport(SeriesRegistry series) {
        this.series = series;
        this.bridge = new DropwizardExports(series.dropwizard(), MetricFilter.ALL);
    }

    @Override
    public MetricSnapshots collect() {
        Map<MetricFamily, List<CounterDataPointSnapshot>> counters = new HashMap<>();
        Map<MetricFamily, List<GaugeDataPointSnapshot>> gauges = new HashMap<>();
        for (MetricSnapshot snapshot : bridge.collect()) {
            Series s = series.seriesOf(snapshot.getMetadata().getName()).orElse(null);
            if (s == null) {
                continue; // registered on the Dropwizard registry directly, without labels: not ours
            }
            if (snapshot instanceof CounterSnapshot c) {
                for (CounterDataPointSnapshot p : c.getDataPoints()) {
                    counters.computeIfAbsent(s.family(), f -> new ArrayList<>())
                            .add(CounterDataPointSnapshot.builder()
                                    .value(p.getValue())
                                    .labels(s.labels())
                                    .build());
                }
            } else if (snapshot instanceof GaugeSnapshot g && s.family().type() == MetricFamily.Type.COUNTER) {
                // a fractional total (SeriesRegistry#fractionalCounterView): a gauge in Dropwizard, a counter here
                for (GaugeDataPointSnapshot p : g.getDataPoints()) {
                    counters.computeIfAbsent(s.family(), f -> new ArrayList<>())
                            .add(CounterDataPointSnapshot.builder()
                                    .value(p.getValue())
                                    .labels(s.labels())
                                    .build());
                }
            } else if (snapshot instanceof GaugeSnapshot g) {
                for (GaugeDataPointSnapshot p : g.getDataPoints()) {
                    gauges.computeIfAbsent(s.family(), f -> new ArrayList<>())
                            .add(GaugeDataPointSnapshot.builder()
                                    .value(p.getValue())
                                    .labels(s.labels())
                                    .build());
                }
            }
        }
        Map<MetricFamily, List<HistogramDataPointSnapshot>> histograms = new HashMap<>();
        series.histograms()
                .forEach((s, h) -> histograms
                        .computeIfAbsent(s.family(), f -> new ArrayList<>())
                        .add(HistogramDataPointSnapshot.builder()
                                .classicHistogramBuckets(
                                        ClassicHistogramBuckets.of(h.buckets().withInfinity(), h.bucketCounts()))
                                .sum(h.sum())
                                .labels(s.labels())
                                .build()));

        MetricSnapshots.Builder out = MetricSnapshots.builder();
        for (MetricFamily family : series.families()) {
            MetricMetadata metadata = new MetricMetadata(family.metadataName(), family.help());
            switch (family.type()) {
                case COUNTER ->
                    out.metricSnapshot(new CounterSnapshot(metadata, counters.getOrDefault(family, List.of())));
                case GAUGE -> out.metricSnapshot(new GaugeSnapshot(metadata, gauges.getOrDefault(family, List.of())));
                case HISTOGRAM ->
                    out.metricSnapshot(new HistogramSnapshot(metadata, histograms.getOrDefault(family, List.of())));
            }
        }
        return out.build();
    }
}
