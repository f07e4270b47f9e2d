package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite's core and cloud behaviours against the full provider {@code main} on the
 * real Proxmox backend ({@code --proxmox-backend proxmox}), which drives the Proxmox API simulator
 * over HTTPS with a verified CA and an API token from a file. The provider runs in this JVM on
 * ephemeral ports; the suite runs in a child JVM (see {@link CoreConformanceRunner}).
 */
class ProxmoxConformanceTest {
    private static final String TOKEN_ID = "bigfleet@pve!conformance";
    private static final String SECRET = "c0nf0rm4-5ec7-4e11-b1ab-000000000001";
    /** Nodes big enough that memory admission never refuses the suite's hundreds of Creates. */
    private static final long NODE_MEMORY = 1L << 50;

    @Test
    void coreAndCloudBehavioursPassOnTheRealBackend(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("token");
        Files.writeString(secret, SECRET + "\n", StandardCharsets.UTF_8);
        SimulatorConfig config = SimulatorConfig.builder()
                .node(NodeSpec.of("pve1").withCapacity(1024, NODE_MEMORY))
                .node(NodeSpec.of("pve2").withCapacity(1024, NODE_MEMORY))
                .templateVmid(9000)
                .token(TOKEN_ID + "=" + SECRET)
                .tlsDir(dir)
                .build();
        try (PveSimulator sim = PveSimulator.start(config);
                RunningProvider provider = ProviderMain.start(
                        "--addr",
                        "127.0.0.1:0",
                        "--metrics-addr",
                        "127.0.0.1:0",
                        "--proxmox-backend",
                        "proxmox",
                        "--proxmox-api-url",
                        sim.apiUrl().toString(),
                        "--proxmox-token-id",
                        TOKEN_ID,
                        "--proxmox-token-file",
                        secret.toString(),
                        "--proxmox-ca-file",
                        sim.caCertificate().toString(),
                        "--nodes",
                        "pve1,pve2",
                        "--seed-count",
                        "2000",
                        "--reconcile-interval",
                        "1s",
                        "--agent-timeout",
                        "1m")) {
            Path report = Path.of("target", "proxmox-conformance.txt").toAbsolutePath();
            Files.createDirectories(report.getParent());
            int exit = CoreConformanceRunner.runInOwnJvm("127.0.0.1:" + provider.grpcPort(), report);
            List<String> lines = Files.readAllLines(report, StandardCharsets.UTF_8);
            String summary = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
            List<String> failures =
                    lines.stream().filter(l -> l.startsWith("FAILED ")).toList();
            assertThat(failures)
                    .as("conformance failures on the real backend (full report: %s)", report)
                    .isEmpty();
            assertThat(exit).as("suite exit code; last line: %s", summary).isZero();
            assertThat(summary).matches("[1-9]\\d* passed, 0 failed, \\d+ skipped");
            assertThat(sim.vms().stream().filter(v -> !v.template()))
                    .as("VMs the suite made through the backend")
                    .isNotEmpty();
        }
    }
}
