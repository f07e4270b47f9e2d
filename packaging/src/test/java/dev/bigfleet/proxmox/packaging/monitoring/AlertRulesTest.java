package dev.bigfleet.proxmox.packaging.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.packaging.Commands;
import dev.bigfleet.proxmox.packaging.Tools;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The alert rules the chart ships: valid for Prometheus ({@code promtool check rules}), and each
 * alert raised by the series that should raise it and by no healthy provider's
 * ({@code promtool test rules}, src/test/resources/alerts/alerts.test.yaml).
 */
class AlertRulesTest {
    static final Path RULES = Path.of("../deploy/helm/bigfleet-proxmox/files/alerts.yaml");
    private static final Path TESTS = Path.of("src/test/resources/alerts/alerts.test.yaml");

    @Test
    void rulesAreValidAndEveryAlertPassesItsUnitTests() {
        Path promtool = Tools.require("promtool");
        assertThat(Commands.run(List.of(promtool.toString(), "check", "rules", RULES.toString()))
                        .ok()
                        .output())
                .contains("SUCCESS: 9 rules found");
        assertThat(Commands.run(List.of(promtool.toString(), "test", "rules", TESTS.toString()))
                        .ok()
                        .output())
                .contains("SUCCESS");
    }
}
