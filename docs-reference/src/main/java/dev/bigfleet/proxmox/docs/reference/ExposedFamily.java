package dev.bigfleet.proxmox.docs.reference;

import java.util.List;

/**
 * A metric family as {@code /metrics} writes it in the Prometheus text format: its name, {@code #
 * TYPE}, {@code # HELP} and the label names its series carry (histograms' {@code le} left out).
 */
record ExposedFamily(String name, String type, String help, List<String> labelNames) {
    ExposedFamily {
        labelNames = List.copyOf(labelNames);
    }
}
