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

/** The metric families README's metrics table names: each backticked name in its first column. */
final class ReadmeMetrics {
    private static final Pattern NAME = Pattern.compile("`([a-z_]+)`");

    private ReadmeMetrics() {}

    static Set<String> families(Path readme) throws IOException {
        List<String> lines = Files.readAllLines(readme, StandardCharsets.UTF_8);
        int start = lines.indexOf("### Metrics: `/metrics`");
        if (start < 0) {
            throw new IllegalStateException("README has no \"### Metrics: `/metrics`\" section");
        }
        Set<String> names = new TreeSet<>();
        boolean inTable = false;
        for (String line : lines.subList(start + 1, lines.size())) {
            if (line.startsWith("| metric ")) {
                inTable = true;
            } else if (inTable && !line.startsWith("|")) {
                break;
            } else if (inTable && !line.startsWith("|---")) {
                Matcher m = NAME.matcher(line.split("\\|", -1)[1]);
                while (m.find()) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }
}
