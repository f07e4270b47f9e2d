/**
 * The provider's metrics: Dropwizard Metrics exported in the Prometheus text format through the
 * Prometheus Dropwizard bridge ({@code prometheus-metrics-instrumentation-dropwizard}).
 *
 * <p>Every counter and gauge is a plain Dropwizard metric, converted by the bridge. This package adds
 * only what the bridge (1.4.3, the newest served) lacks, and keeps it small:
 *
 * <ul>
 *   <li><b>Labelled families</b> ({@link dev.bigfleet.proxmox.server.metrics.SeriesRegistry},
 *       {@link dev.bigfleet.proxmox.server.metrics.Series}, {@link
 *       dev.bigfleet.proxmox.server.metrics.MetricFamily}, {@link
 *       dev.bigfleet.proxmox.server.metrics.LabelledExport}): Dropwizard names are flat strings and the
 *       bridge's glob label mapper splits them on dots, but label values here contain dots ({@code
 *       pve.large}) and slashes ({@code GET /cluster/resources}); and the bridge refuses two metrics
 *       that map to one Prometheus name, which every family with labels is. So each series is one
 *       Dropwizard metric under a unique name, the registry remembers its family and labels, and the
 *       export puts them back around the bridge's snapshots.
 *   <li><b>Bucket histograms</b> ({@link dev.bigfleet.proxmox.server.metrics.BucketHistogram}, {@link
 *       dev.bigfleet.proxmox.server.metrics.Buckets}): Dropwizard histograms are reservoirs of
 *       quantiles, which Prometheus cannot aggregate across processes; the reference provider's
 *       dashboards read {@code _bucket} series with fixed bounds, so durations are counted into fixed
 *       buckets and exported as classic Prometheus histograms.
 * </ul>
 *
 * The rest are the families themselves ({@link dev.bigfleet.proxmox.server.metrics.Families}) and the
 * parts that feed them from the engine, the store, the backend's API calls and the JVM. Totals that
 * only grow are counters even when Dropwizard keeps them as gauges (GC counts and seconds, see
 * {@link dev.bigfleet.proxmox.server.metrics.SeriesRegistry#fractionalCounterView}).
 *
 * <p>Two series are not Dropwizard's, registered on the same Prometheus registry: the {@code
 * process_*} series every Prometheus client exports by convention (CPU seconds, resident memory,
 * open and maximum file descriptors, start time) come from the Prometheus client's own {@code
 * ProcessMetrics}, since Dropwizard has no resident-memory or file-descriptor gauges and that is the
 * reference implementation of those names; and {@code bigfleet_proxmox_build_info} is the client's
 * {@code Info} type, which Dropwizard lacks.
 */
package dev.bigfleet.proxmox.server.metrics;
