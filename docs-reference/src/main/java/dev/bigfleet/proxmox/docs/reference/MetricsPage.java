package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.server.metrics.DeclaredFamilies;
import dev.bigfleet.proxmox.server.metrics.MetricFamily;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * {@code docs/reference/metrics.md}: every metric family {@code /metrics} can serve. The provider's
 * declared families come with their labels and histogram buckets, whether or not a given process
 * exports them; the rest (the Prometheus client's process collector, the build info) from what a
 * new provider's registry writes.
 */
final class MetricsPage implements ReferencePage {
    /** Sections of the page, by name prefix; the last one takes every other name. */
    private static final List<Section> SECTIONS = List.of(
            new Section("Provider", "bigfleet_proxmox_"),
            new Section("JVM", "jvm_"),
            new Section("Process", "process_"),
            new Section("Other", ""));

    private record Section(String title, String prefix) {}

    @Override
    public Path file() {
        return Path.of("docs", "reference", "metrics.md");
    }

    @Override
    public String render() throws Exception {
        List<ExposedFamily> families = new ArrayList<>();
        List<MetricFamily> declared = DeclaredFamilies.all();
        declared.forEach(f -> families.add(
                new ExposedFamily(f.name(), f.type().name().toLowerCase(Locale.ROOT), f.help(), f.labelNames())));
        Map<String, ExposedFamily> scraped = Scrape.ofNewProvider();
        scraped.values().stream()
                .filter(f -> declared.stream().noneMatch(d -> d.name().equals(f.name())))
                .forEach(families::add);
        families.sort(Comparator.comparing(ExposedFamily::name));

        MarkdownPage page = new MarkdownPage("Metrics");
        page.paragraph(Markdown.code("GET /metrics") + " on " + Markdown.code("--metrics-addr")
                + " serves these families in the Prometheus text format. Some need a setting or a backend to"
                + " appear: " + Markdown.code("bigfleet_proxmox_node_schedulable") + " has a series per node of "
                + Markdown.code("--nodes") + ", " + Markdown.code("bigfleet_proxmox_state_file_bytes")
                + " needs an SQLite " + Markdown.code("--state") + ", "
                + Markdown.code("bigfleet_proxmox_identity_refusals_total") + " client certificates ("
                + Markdown.code("--tls-ca") + "), and "
                + Markdown.code("bigfleet_proxmox_api_up") + " and "
                + Markdown.code("bigfleet_proxmox_api_breaker_open")
                + " a backend that reports its API's health (the real one).");
        List<ExposedFamily> left = new ArrayList<>(families);
        for (Section section : SECTIONS) {
            List<ExposedFamily> in = left.stream()
                    .filter(f -> f.name().startsWith(section.prefix()))
                    .toList();
            left.removeAll(in);
            if (in.isEmpty()) {
                continue;
            }
            page.heading(2, section.title());
            MarkdownTable table = new MarkdownTable("Metric", "Type", "Labels", "Help");
            for (ExposedFamily f : in) {
                if (f.help().isBlank()) {
                    throw new IllegalStateException("metric " + f.name() + " has no help text");
                }
                table.row(
                        Markdown.code(f.name()),
                        f.type(),
                        String.join(
                                ", ",
                                f.labelNames().stream().map(Markdown::code).toList()),
                        Markdown.text(f.help()));
            }
            page.table(table);
        }

        page.heading(2, "Histogram buckets");
        page.paragraph("Upper bounds of each histogram's buckets, in seconds; " + Markdown.code("+Inf")
                + " follows the last.");
        MarkdownTable buckets = new MarkdownTable("Histogram", "Bucket bounds (seconds)");
        for (MetricFamily f : declared) {
            if (f.type() == MetricFamily.Type.HISTOGRAM) {
                buckets.row(
                        Markdown.code(f.name()),
                        String.join(
                                ", ",
                                IntStream.range(0, f.buckets().size())
                                        .mapToObj(i -> bound(f.buckets().bound(i)))
                                        .toList()));
            }
        }
        page.table(buckets);
        return page.render();
    }

    private static String bound(double seconds) {
        return BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString();
    }
}
