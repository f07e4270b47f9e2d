package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API on the real Proxmox backend, driving the Proxmox API simulator over HTTPS: a machine
 * holding a VM links to that VM in the Proxmox web UI, by default on the API's host and port, or on
 * {@code --proxmox-ui-url}.
 */
class AdminOnProxmoxTest {
    private static final String TOKEN_ID = "bigfleet@pve!admin";
    private static final String SECRET = "ad41n000-5ec7-4e11-b1ab-000000000001";
    private static final String ID = "proxmox/OnDemand/pve.large/pve1/000";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestingProvider provider(PveSimulator sim, String... extra) throws Exception {
        String[] base = {
            "--proxmox-api-url",
            sim.apiUrl().toString(),
            "--proxmox-token-id",
            TOKEN_ID,
            "--proxmox-token-secret",
            SECRET,
            "--proxmox-ca-file",
            sim.caCertificate().toString(),
            "--nodes",
            "pve1,pve2",
            "--seed-count",
            "4",
            "--agent-timeout",
            "1m"
        };
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return TestingProvider.builder().backend("proxmox").flags(all).build();
    }

    @Test
    void aMachineHoldingAVmLinksToItInTheProxmoxWebUi(@TempDir Path dir) throws Exception {
        SimulatorConfig config = SimulatorConfig.builder()
                .node(NodeSpec.of("pve1").withCapacity(64, 1L << 40))
                .node(NodeSpec.of("pve2").withCapacity(64, 1L << 40))
                .templateVmid(9000)
                .token(TOKEN_ID + "=" + SECRET)
                .tlsDir(dir)
                .build();
        try (PveSimulator sim = PveSimulator.start(config)) {
            URI api = sim.apiUrl();
            try (TestingProvider live = provider(sim)) {
                live.client().create(ID);
                live.client().awaitState(ID, MachineState.MACHINE_STATE_IDLE);
                JsonNode machine =
                        JSON.readTree(live.get("/api/v1/machines/" + ID).body());
                long vmid = Long.parseLong(machine.get("host").asText().substring("pve1/".length()));
                assertThat(sim.vm((int) vmid)).as("the VM the link names").isPresent();
                assertThat(machine.get("proxmox_url").asText())
                        .isEqualTo("https://" + api.getHost() + ":" + api.getPort() + "/#v1:0:=qemu%2F" + vmid
                                + ":4:::::5::");
                JsonNode row = JSON.readTree(
                                live.get("/api/v1/machines?q=" + ID).body())
                        .get("items")
                        .get(0);
                assertThat(row.get("proxmox_url").asText())
                        .isEqualTo(machine.get("proxmox_url").asText());
                JsonNode speculative = JSON.readTree(live.get("/api/v1/machines/proxmox/OnDemand/pve.large/pve2/000")
                        .body());
                assertThat(speculative.get("proxmox_url").isNull())
                        .as("no VM, no link")
                        .isTrue();
                assertThat(JSON.readTree(live.get("/api/v1/machines/" + ID).body())
                                .get("operations")
                                .get(0)
                                .get("outcome")
                                .asText())
                        .isEqualTo("success");
            }
            try (TestingProvider live = provider(sim, "--proxmox-ui-url", "https://pve.example.org/proxmox")) {
                JsonNode machine =
                        JSON.readTree(live.get("/api/v1/machines/" + ID).body());
                assertThat(machine.get("proxmox_url").asText())
                        .startsWith("https://pve.example.org/proxmox/#v1:0:=qemu%2F");
            }
        }
    }
}
