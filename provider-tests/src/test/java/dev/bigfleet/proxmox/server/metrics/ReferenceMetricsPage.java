package dev.bigfleet.proxmox.server.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric families the reference page {@code docs/reference/metrics.md} lists: each backticked
 * name in the first column of its tables headed {@code | Metric |}.
 */
final class ReferenceMetricsPage {
    static final Path FILE = Path.of("..", "docs", "reference", "metrics.md");
    private static final Pattern NAME = Pattern.compile("`([a-z_]+)`");

    private ReferenceMetricsPage() {}

    static Set<String> families(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        Set<String> names = new TreeSet<>();
        boolean inTable = false;
        for (String line : lines) {
            if (line.startsWith("| Metric |")) {
                inTable = true;
            } else if (inTable && !line.startsWith("|")) {
                inTable = false;
            } else if (inTable && !line.startsWith("| ---")) {
                Matcher m = NAME.matcher(line.split("\\|", -1)[1]);
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        if (names.isEmpty()) {
            throw new IllegalStateException(page + " has no table headed \"| Metric |\"");
        }
        return names;
    }
}
