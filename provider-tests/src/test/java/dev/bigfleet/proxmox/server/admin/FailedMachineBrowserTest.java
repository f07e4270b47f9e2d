package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A FAILED machine that needs an operator, in headless Chromium: its drain failed, so its VM may
 * still be a live node, and the cleanup's re-drain failed too (the machines {@code
 * bigfleet_proxmox_failed_needs_attention} counts). The page marks it in the table, the failures
 * list, the summary and its detail view; the header shows when a reconcile last succeeded.
 */
@Tag("browser")
class FailedMachineBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ID = "proxmox/OnDemand/pve.large/pve-a/000";
    private TestingProvider live;
    private HeadlessChromium browser;

    @AfterEach
    void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (live != null) {
            live.close();
        }
    }

    private JsonNode failure() throws Exception {
        return JSON.readTree(live.get("/api/v1/machines/" + ID).body()).get("failure");
    }

    @Test
    void aMachineWhoseDrainAndCleanupFailedIsMarkedAsNeedingAttention() throws Exception {
        live = TestingProvider.builder()
                .flags(
                        "--seed-count",
                        "16",
                        "--fake-latency",
                        "0s",
                        "--fake-faults",
                        "--failed-retention",
                        "1s",
                        "--reconcile-interval",
                        "1s")
                .build();
        live.client().create(ID);
        live.client().awaitState(ID, MachineState.MACHINE_STATE_IDLE);
        live.client().configure(ID, "fault-drain-error", new byte[] {1});
        live.client().awaitState(ID, MachineState.MACHINE_STATE_CONFIGURED);
        live.client().drain(ID);
        live.client().awaitState(ID, MachineState.MACHINE_STATE_FAILED);
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> failure().get("needs_attention").asBoolean());
        assertThat(failure().get("bound").asBoolean()).isTrue();
        assertThat(failure().get("cleanup_attempts").asInt()).isPositive();

        browser = new HeadlessChromium("UTC");
        browser.open(live.baseUrl() + "/admin/?state=FAILED");
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.all("#machines-table tbody tr[data-id]").size() == 1);
        assertThat(browser.text("#machines-table tbody tr[data-id] .attention")).isEqualTo("needs attention");
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.text("#stat-attention").equals("1 need attention"));
        assertThat(browser.text("#failures li[data-id] .attention")).isEqualTo("needs attention");
        browser.waiting(Duration.ofSeconds(15))
                .until(d -> browser.text("#last-reconcile").matches("\\d+s ago"));
        assertThat(browser.find("#last-reconcile").getAttribute("title")).contains("every 1s");

        browser.click("#failures li[data-id] a.machine-link");
        browser.waiting(Duration.ofSeconds(10))
                .until(d -> browser.text("#detail-id").equals(ID));
        assertThat(browser.text("#detail-failure"))
                .contains("Failed in drain")
                .contains("Its VM may be a live node")
                .contains("needs attention");
        assertThat(browser.text("#detail-fields")).contains("needs attention");
        browser.waiting(Duration.ofSeconds(10))
                .until(d -> !browser.all("#operations-table tbody tr[data-outcome=error]")
                        .isEmpty());
        assertThat(browser.text("#operations-table tbody tr[data-outcome=error]"))
                .startsWith("drain")
                .contains("disruption budget");
        assertThat(browser.consoleErrors()).isEmpty();
    }
}
