package dev.bigfleet.proxmox.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API call series are the selected backend's own: declared ones at zero from the start, no one else's. */
class ActiveBackendSeriesTest {
    private static final String SECRET = "5e1e5e1e-5ec7-4e11-b1ab-000000000001";

    @Test
    void theFakeExportsItsOperationsAtZeroBeforeAnyCall() throws Exception {
        try (TestingProvider live =
                TestingProvider.builder().flags("--seed-count", "2").build()) {
            String text = live.get("/metrics").body();
            assertThat(text)
                    .contains("bigfleet_proxmox_api_calls_total{op=\"CloneVM\",outcome=\"success\"} 0.0\n")
                    .contains("bigfleet_proxmox_api_duration_seconds_count{op=\"Drain\"} 0\n")
                    .doesNotContain("op=\"GET /");
        }
    }

    @Test
    void theRealBackendExportsOnlyTheCallsItMakes(@TempDir Path dir) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), SECRET, StandardCharsets.UTF_8);
        try (PveSimulator sim = PveSimulator.start(SimulatorConfig.builder()
                        .nodes("pve1")
                        .templateVmid(9000)
                        .token("bigfleet@pve!metrics=" + SECRET)
                        .tlsDir(dir)
                        .build());
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
                        "bigfleet@pve!metrics",
                        "--proxmox-token-file",
                        token.toString(),
                        "--proxmox-ca-file",
                        sim.caCertificate().toString(),
                        "--nodes",
                        "pve1",
                        "--seed-count",
                        "2",
                        "--reconcile-interval",
                        "0")) {
            String text = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                                            + provider.httpPort().orElseThrow() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(text)
                    .contains("bigfleet_proxmox_api_calls_total{op=\"GET /version\",outcome=\"success\"}")
                    .doesNotContain("op=\"CloneVM\"")
                    .doesNotContain("op=\"DescribeManaged\"");
        }
    }
}
