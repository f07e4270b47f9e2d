package dev.bigfleet.proxmox.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The series the alert rules watch: readiness, and the state file's size as it grows. */
class ServingMetricsTest {
    @TempDir
    Path dir;

    private static Scrape scrape(TestingProvider live) throws Exception {
        return new Scrape(live.get("/metrics").body());
    }

    @Test
    void aReadyProviderSaysSoAndItsStateFileSizeGrowsWithItsChanges() throws Exception {
        Path state = dir.resolve("state.db");
        try (TestingProvider live = TestingProvider.builder()
                .flags("--seed-count", "8", "--fake-latency", "0s", "--state", state.toString())
                .build()) {
            Scrape first = scrape(live);
            assertThat(first.value("bigfleet_proxmox_ready")).isEqualTo(1.0);
            double before = first.value("bigfleet_proxmox_state_file_bytes");
            assertThat(before)
                    .isGreaterThanOrEqualTo((double) Files.size(state))
                    .isPositive();

            live.client()
                    .fullLifecycle("proxmox/OnDemand/pve.large/pve-a/000", "blob".getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> scrape(live).value("bigfleet_proxmox_state_file_bytes") > before);
        }
    }

    @Test
    void withoutAStateFileThereIsNoSizeSeries() throws Exception {
        try (TestingProvider live =
                TestingProvider.builder().flags("--seed-count", "4").build()) {
            assertThat(scrape(live).value("bigfleet_proxmox_ready")).isEqualTo(1.0);
            assertThat(live.get("/metrics").body()).doesNotContain("bigfleet_proxmox_state_file_bytes");
        }
    }
}
