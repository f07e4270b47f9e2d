package dev.bigfleet.proxmox.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin API on the real Proxmox backend, driving the Proxmox API simulator over HTTPS: a machine
 * holding a VM links to that VM in the Proxmox web UI, by default on the API's host and port, or on
 * {@code --proxmox-ui-url}.
 */
class AdminOnProxmoxTest {
    private static final String ID = "proxmox/OnDemand/pve.large/pve1/000";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestingProvider provider(TestingProxmoxCluster cluster, String... extra) throws Exception {
        return TestingProvider.builder()
                .proxmox(cluster)
                .seedCount(4)
                .flags("--agent-timeout", "1m")
                .flags(extra)
                .build();
    }

    @Test
    void aMachineWhoseVmHasAStaticAddressShowsIt(@TempDir Path dir) throws Exception {
        Path types = Files.writeString(
                dir.resolve("types.json"),
                "{\"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"template_vmid\": 9000},"
                        + " \"pve.large\": {\"vcpu\": 8, \"memory_mib\": 16384, \"template_vmid\": 9000,"
                        + " \"networks\": [{\"bridge\": \"vmbr0\", \"addresses\": {\"cidr\": \"10.20.0.0/24\","
                        + " \"range\": \"10.20.0.10-10.20.0.20\", \"gateway\": \"10.20.0.1\"}}]}}");
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .node(NodeSpec.of("pve1").withCapacity(64, 1L << 40))
                        .node(NodeSpec.of("pve2").withCapacity(64, 1L << 40))
                        .template(TemplateSpec.of(TestingProxmoxCluster.TEMPLATE, "pve1")
                                .withCloudInit())
                        .start();
                TestingProvider live = provider(cluster, "--instance-types", types.toString())) {
            live.client().create(ID);
            live.client().awaitState(ID, MachineState.MACHINE_STATE_IDLE);
            JsonNode machine = JSON.readTree(live.get("/api/v1/machines/" + ID).body());
            assertThat(machine.get("addresses")).hasSize(1);
            assertThat(machine.get("addresses").get(0).asText()).isEqualTo("10.20.0.10/24");
            JsonNode row = JSON.readTree(live.get("/api/v1/machines?q=" + ID).body())
                    .get("items")
                    .get(0);
            assertThat(row.get("addresses").get(0).asText()).isEqualTo("10.20.0.10/24");
            JsonNode speculative = JSON.readTree(live.get("/api/v1/machines/proxmox/OnDemand/pve.large/pve2/000")
                    .body());
            assertThat(speculative.get("addresses")).as("no VM, no address").isEmpty();
        }
    }

    @Test
    void aMachineHoldingAVmLinksToItInTheProxmoxWebUi() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .node(NodeSpec.of("pve1").withCapacity(64, 1L << 40))
                .node(NodeSpec.of("pve2").withCapacity(64, 1L << 40))
                .start()) {
            PveSimulator sim = cluster.simulator();
            URI api = sim.apiUrl();
            try (TestingProvider live = provider(cluster)) {
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
            try (TestingProvider live = provider(cluster, "--proxmox-ui-url", "https://pve.example.org/proxmox")) {
                JsonNode machine =
                        JSON.readTree(live.get("/api/v1/machines/" + ID).body());
                assertThat(machine.get("proxmox_url").asText())
                        .startsWith("https://pve.example.org/proxmox/#v1:0:=qemu%2F");
            }
        }
    }
}
