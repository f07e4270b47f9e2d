package dev.bigfleet.proxmox.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import org.junit.jupiter.api.Test;

/** The API call series are the selected backend's own: declared ones at zero from the start, no one else's. */
class ActiveBackendSeriesTest {
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
    void theRealBackendExportsOnlyTheCallsItMakes() throws Exception {
        try (TestingProxmoxCluster cluster =
                        TestingProxmoxCluster.builder().nodes("pve1").start();
                TestingProvider provider =
                        TestingProvider.builder().proxmox(cluster).seedCount(2).build()) {
            assertThat(provider.metrics())
                    .contains("bigfleet_proxmox_api_calls_total{op=\"GET /version\",outcome=\"success\"}")
                    .doesNotContain("op=\"CloneVM\"")
                    .doesNotContain("op=\"DescribeManaged\"");
        }
    }
}
