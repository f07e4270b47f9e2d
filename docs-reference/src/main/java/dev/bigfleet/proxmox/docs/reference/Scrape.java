package dev.bigfleet.proxmox.docs.reference;

import dev.bigfleet.proxmox.server.metrics.ProviderMetrics;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The families a fresh provider's metrics registry writes, read back from the text {@code /metrics}
 * serves: the source for the families that are not the provider's own declarations (the Prometheus
 * client's {@code process_*} collector, the build info).
 */
final class Scrape {
    private static final Pattern HELP = Pattern.compile("# HELP (\\S+) (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (\\S+) (\\S+)");
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{(.*)}\\s.*");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"(?:[^\"\\\\]|\\\\.)*\"");
    private static final List<String> SAMPLE_SUFFIXES = List.of("_bucket", "_count", "_sum", "_created");

    private Scrape() {}

    /** The families of a newly created provider's registry, by name, in the order written. */
    static Map<String, ExposedFamily> ofNewProvider() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, ProviderMetrics.create().scrape());
        return parse(out.toString(StandardCharsets.UTF_8));
    }

    static Map<String, ExposedFamily> parse(String text) {
        Map<String, String> helps = new LinkedHashMap<>();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, Set<String>> labels = new LinkedHashMap<>();
        for (String line : text.lines().toList()) {
            Matcher help = HELP.matcher(line);
            Matcher type = TYPE.matcher(line);
            Matcher sample = SAMPLE.matcher(line);
            if (help.matches()) {
                helps.put(help.group(1), unescape(help.group(2)));
            } else if (type.matches()) {
                types.put(type.group(1), type.group(2));
                labels.putIfAbsent(type.group(1), new LinkedHashSet<>());
            } else if (sample.matches()) {
                Set<String> names = labels.get(family(sample.group(1), types));
                if (names != null) {
                    Matcher label = LABEL.matcher(sample.group(2));
                    while (label.find()) {
                        if (!label.group(1).equals("le")) {
                            names.add(label.group(1));
                        }
                    }
                }
            }
        }
        Map<String, ExposedFamily> families = new LinkedHashMap<>();
        types.forEach((name, type) -> families.put(
                name, new ExposedFamily(name, type, helps.getOrDefault(name, ""), new ArrayList<>(labels.get(name)))));
        return families;
    }

    private static String family(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : SAMPLE_SUFFIXES) {
            if (sample.endsWith(suffix)) {
                return sample.substring(0, sample.length() - suffix.length());
            }
        }
        return sample;
    }

    private static String unescape(String help) {
        return help.replace("\\n", "\n").replace("\\\\", "\\");
    }
}
