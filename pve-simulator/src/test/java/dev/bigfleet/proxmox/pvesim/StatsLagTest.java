package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** With a statistics lag, /cluster/resources shows stale status and no name for new VMs. */
class StatsLagTest {

    private static JsonNode entry(TestClient client, int vmid) {
        for (JsonNode e : client.get("/cluster/resources?type=vm").data()) {
            if (e.get("vmid").asInt() == vmid) {
                return e;
            }
        }
        return null;
    }

    @Test
    void statusAndNameLagBehindWhileTagsAreLive() throws Exception {
        try (PveSimulator sim = PveSimulator.start(SimulatorConfig.builder()
                .templateVmid(9000)
                .statsLag(Duration.ofSeconds(1))
                .token("bigfleet@pve!autoscaler=s3cret")
                .build())) {
            TestClient client = TestClient.of(sim);
            // The first sample comes one lag period after the start; on a slow machine it may
            // already have been taken, so the "not sampled yet" view is checked only if seen.
            client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", "101", "name", "fresh"));
            client.put("/nodes/pve1/qemu/101/config", "tags", "bigfleet");
            JsonNode early = entry(client, 101);
            if (early.get("status").asText().equals("unknown")) {
                assertThat(early.has("name")).isFalse();
                assertThat(early.get("tags").asText()).isEqualTo("bigfleet");
            }
            TestClient.sleep(1100);
            JsonNode later = entry(client, 101);
            assertThat(later.get("status").asText()).isEqualTo("stopped");
            assertThat(later.get("name").asText()).isEqualTo("fresh");
            client.run(client.post("/nodes/pve1/qemu/101/status/start"));
            assertThat(client.get("/nodes/pve1/qemu/101/status/current")
                            .data()
                            .get("status")
                            .asText())
                    .isEqualTo("running");
            TestClient.sleep(1100);
            assertThat(entry(client, 101).get("status").asText()).isEqualTo("running");
        }
    }
}
