package dev.bigfleet.proxmox.packaging.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.bigfleet.proxmox.packaging.Commands;
import dev.bigfleet.proxmox.packaging.Tools;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard: every panel's query is PromQL Prometheus accepts (each becomes a
 * recording rule for {@code promtool check rules}, Grafana's variables given sample values), and
 * it covers what an operator looks for.
 */
class DashboardTest {
    static final Path DASHBOARD = Path.of("../deploy/helm/bigfleet-proxmox/files/dashboard.json");

    @TempDir
    Path dir;

    @Test
    void everyPanelQueryIsValidPromQlAndTheDashboardCoversTheProvider() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(dashboard.get("uid").asText()).isEqualTo("bigfleet-proxmox");
        List<String> titles = new ArrayList<>();
        Set<String> expressions = new LinkedHashSet<>();
        for (JsonNode panel : dashboard.get("panels")) {
            titles.add(panel.get("title").asText());
            for (JsonNode target : panel.path("targets")) {
                expressions.add(target.get("expr").asText());
            }
        }
        assertThat(titles)
                .contains(
                        "Machines by state",
                        "Machines by zone and state",
                        "FAILED machines",
                        "Need attention",
                        "Transition duration p95",
                        "Transitions failing",
                        "Fencing rejections",
                        "API reachable",
                        "API errors",
                        "API latency p95",
                        "Commit latency",
                        "Heap",
                        "CPU");

        YAMLMapper yaml = new YAMLMapper();
        ObjectNode rules = yaml.createObjectNode();
        ObjectNode group = rules.putArray("groups").addObject().put("name", "dashboard");
        var list = group.putArray("rules");
        int i = 0;
        for (String expr : expressions) {
            String concrete = expr.replace("$__rate_interval", "1m")
                    .replace("$__range", "6h")
                    .replace("$instance", ".*");
            list.addObject().put("record", "dashboard:panel" + i++).put("expr", concrete);
        }
        Path file = dir.resolve("dashboard-rules.yaml");
        yaml.writeValue(file.toFile(), rules);
        Path promtool = Tools.require("promtool");
        assertThat(Commands.run(List.of(promtool.toString(), "check", "rules", file.toString()))
                        .ok()
                        .output())
                .contains("SUCCESS: " + expressions.size() + " rules found");
    }
}
