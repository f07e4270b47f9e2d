package dev.bigfleet.proxmox.server.metrics;

import java.util.HashMap;
import java.util.Map;

/** A parsed Prometheus text scrape: each sample line's series (name and labels, as written) to its value. */
final class Scrape {
    final String text;
    private final Map<String, Double> samples = new HashMap<>();

    Scrape(String text) {
        this.text = text;
        for (String line : text.split("\n", -1)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
    }

    /** The value of a series, 0 when absent; {@code series} as in the scrape, e.g. {@code a_total{op="x"}}. */
    double value(String series) {
        return samples.getOrDefault(series, 0.0);
    }

    boolean has(String series) {
        return samples.containsKey(series);
    }
}
