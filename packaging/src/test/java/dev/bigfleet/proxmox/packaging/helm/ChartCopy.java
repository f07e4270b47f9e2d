package dev.bigfleet.proxmox.packaging.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/** A copy of the chart whose values.yaml is its own merged with a values file, as helm merges them. */
final class ChartCopy {
    private static final YAMLMapper YAML = new YAMLMapper();

    private ChartCopy() {}

    static Path withValues(Path chart, Path values, Path into) throws IOException {
        try (Stream<Path> files = Files.walk(chart)) {
            for (Path file : files.toList()) {
                Path target = into.resolve(chart.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        ObjectNode merged =
                (ObjectNode) YAML.readTree(chart.resolve("values.yaml").toFile());
        merge(merged, YAML.readTree(values.toFile()));
        YAML.writeValue(into.resolve("values.yaml").toFile(), merged);
        return into;
    }

    private static void merge(ObjectNode base, JsonNode overrides) {
        for (Map.Entry<String, JsonNode> e : overrides.properties()) {
            JsonNode current = base.get(e.getKey());
            if (current instanceof ObjectNode object && e.getValue().isObject()) {
                merge(object, e.getValue());
            } else {
                base.set(e.getKey(), e.getValue());
            }
        }
    }
}
