package dev.bigfleet.proxmox.server.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import java.util.List;
import java.util.Objects;

/** One time series: a family and the values of its labels. */
public record Series(MetricFamily family, List<String> labelValues) {
    public Series {
        Objects.requireNonNull(family, "family");
        labelValues = List.copyOf(labelValues);
        if (labelValues.size() != family.labelNames().size()) {
            throw new IllegalArgumentException(
                    family.name() + " takes labels " + family.labelNames() + ", got " + labelValues);
        }
    }

    Labels labels() {
        return Labels.of(family.labelNames(), labelValues);
    }

    /**
     * The series' name in the Dropwizard registry. The bridge turns every character outside
     * {@code [A-Za-z0-9_:]} into {@code _} and refuses two metrics that end up with one name, so
     * the key keeps letters and digits of label values and writes everything else (including
     * {@code _}) as {@code _xxxx}: distinct series always get distinct keys. The trailing colon
     * keeps the bridge from trimming a {@code _total} suffix off the key.
     */
    String registryKey() {
        StringBuilder key = new StringBuilder(family.name()).append(':');
        for (int i = 0; i < labelValues.size(); i++) {
            key.append(family.labelNames().get(i)).append(':');
            String value = labelValues.get(i);
            for (int c = 0; c < value.length(); c++) {
                char ch = value.charAt(c);
                if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) {
                    key.append(ch);
                } else {
                    key.append('_').append(String.format("%04x", (int) ch));
                }
            }
            key.append(':');
        }
        return key.toString();
    }
}
