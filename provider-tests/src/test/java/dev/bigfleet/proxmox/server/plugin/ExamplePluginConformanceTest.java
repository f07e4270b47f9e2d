package dev.bigfleet.proxmox.server.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.server.proxmox.CoreConformanceRunner;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite's core and cloud behaviours against a provider process of its own running
 * the example plugin from {@code --plugin-dir}; the suite runs in a child JVM too (see {@link
 * CoreConformanceRunner}). The provider's log shows the plugin started on its own Jackson.
 */
@Tag("conformance")
class ExamplePluginConformanceTest {
    private static final Pattern READY = Pattern.compile(
            "example backend ready \\(.*\\) with jackson-databind " + Pattern.quote(ExamplePlugin.JACKSON) + "\\s*$");

    @Test
    void coreAndCloudBehavioursPassOnTheExamplePlugin(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("vms.json");
        try (ProviderProcess provider = ProviderProcess.start(
                Launch.OWN_JVM,
                List.of(
                        "--plugin-dir",
                        ExamplePlugin.directory().toString(),
                        "--proxmox-backend",
                        ExamplePlugin.NAME,
                        "--backend-opt",
                        "boot-delay=20ms",
                        "--backend-opt",
                        "state-file=" + state,
                        "--addr",
                        "127.0.0.1:0",
                        "--metrics-addr",
                        "",
                        "--seed-count",
                        "2000",
                        "--reconcile-interval",
                        "300ms"))) {
            int grpcPort = provider.awaitServing(Duration.ofSeconds(60)).grpc();
            assertThat(provider.log())
                    .as("the provider's log")
                    .anyMatch(l -> READY.matcher(l).find());

            Path report = Path.of("target", "example-plugin-conformance.txt").toAbsolutePath();
            Files.createDirectories(report.getParent());
            int exit = CoreConformanceRunner.runInOwnJvm("127.0.0.1:" + grpcPort, report);

            List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
            String summary = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
            assertThat(lines.stream().filter(l -> l.startsWith("FAILED ")))
                    .as("conformance failures on the example plugin (full report: %s)", report)
                    .isEmpty();
            assertThat(exit).as("suite exit code; last line: %s", summary).isZero();
            assertThat(summary).matches("[1-9]\\d* passed, 0 failed, \\d+ skipped");
            assertThat(Files.readString(state, StandardCharsets.UTF_8))
                    .as("VMs the suite left in the plugin's state")
                    .contains("\"machine_id\"");
        }
    }
}
