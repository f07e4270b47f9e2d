package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cluster that moves, in the API's own words: pve-ha-manager's status with maintenance mode and
 * quorum, clones refused without quorum, and migration (offline and online) as a {@code qmigrate}
 * task after qemu-server's synchronous checks.
 */
class LivingClusterTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2", "pve3")
                .template(TemplateSpec.of(9000, "pve1"))
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @AfterEach
    void cleanUp() {
        sim.faults().clear();
        sim.faults().nodeMaintenance("pve2", false);
        sim.faults().quorum(true);
        for (VmView vm : sim.vms()) {
            if (!vm.template()) {
                sim.faults().destroyVm(vm.vmid());
            }
        }
    }

    private int clone(String node) {
        String id = client.get("/cluster/nextid").data().asText();
        TestClient.Resp r = client.post("/nodes/pve1/qemu/9000/clone", "newid", id, "target", node, "full", "1");
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        assertThat(client.awaitTask(r.data().asText()).get("exitstatus").asText())
                .isEqualTo("OK");
        return Integer.parseInt(id);
    }

    @Test
    void maintenanceModeShowsOnlyInTheHaManagersStatusNotInTheNodeList() {
        sim.faults().nodeMaintenance("pve2", true);

        JsonNode ha = client.get("/cluster/ha/status/manager_status").data();
        assertThat(ha.at("/manager_status/node_status/pve2").asText()).isEqualTo("maintenance");
        assertThat(ha.at("/manager_status/node_status/pve1").asText()).isEqualTo("online");
        assertThat(ha.at("/lrm_status/pve2/mode").asText()).isEqualTo("maintenance");
        assertThat(ha.at("/quorum/quorate").asInt()).isEqualTo(1);
        JsonNode nodes = client.get("/nodes").data();
        for (JsonNode n : nodes) {
            assertThat(n.get("status").asText())
                    .as("/nodes says %s", n.get("node"))
                    .isEqualTo("online");
        }
        assertThat(sim.vm(clone("pve2")))
                .as("Proxmox itself still clones onto it")
                .isPresent();
    }

    @Test
    void withoutQuorumAClonesRefusedSynchronouslyAndTheStatusSaysSo() {
        sim.faults().quorum(false);

        TestClient.Resp r = client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "full", "1");
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.message()).contains("cluster not ready - no quorum?");
        assertThat(client.get("/cluster/ha/status/manager_status")
                        .data()
                        .at("/quorum/quorate")
                        .asInt())
                .isZero();
        assertThat(sim.vm(150)).isEmpty();
    }

    @Test
    void aStoppedVmMigratesOfflineAndARunningOneOnlyOnline() {
        int stopped = clone("pve1");
        TestClient.Resp offline = client.post("/nodes/pve1/qemu/" + stopped + "/migrate", "target", "pve2");
        assertThat(offline.status()).as(offline.text()).isEqualTo(200);
        JsonNode task = client.awaitTask(offline.data().asText());
        assertThat(task.get("type").asText()).isEqualTo("qmigrate");
        assertThat(task.get("exitstatus").asText()).isEqualTo("OK");
        assertThat(sim.vm(stopped).orElseThrow().node()).isEqualTo("pve2");

        int running = clone("pve1");
        sim.faults().setPower(running, PowerState.RUNNING);
        TestClient.Resp refused = client.post("/nodes/pve1/qemu/" + running + "/migrate", "target", "pve3");
        assertThat(refused.status()).isEqualTo(500);
        assertThat(refused.message()).contains("can't migrate running VM without --online");
        TestClient.Resp online =
                client.post("/nodes/pve1/qemu/" + running + "/migrate", "target", "pve3", "online", "1");
        assertThat(online.status()).as(online.text()).isEqualTo(200);
        assertThat(client.awaitTask(online.data().asText()).get("exitstatus").asText())
                .isEqualTo("OK");
        VmView moved = sim.vm(running).orElseThrow();
        assertThat(moved.node()).isEqualTo("pve3");
        assertThat(moved.power()).isEqualTo(PowerState.RUNNING);
    }

    @Test
    void aMigrationToItsOwnNodeOrANodeThatDoesNotExistIsRefused() {
        int vm = clone("pve1");
        TestClient.Resp local = client.post("/nodes/pve1/qemu/" + vm + "/migrate", "target", "pve1");
        assertThat(local.status()).isEqualTo(400);
        assertThat(local.error("target")).contains("target is local node.");
        TestClient.Resp unknown = client.post("/nodes/pve1/qemu/" + vm + "/migrate", "target", "pve9");
        assertThat(unknown.status()).isEqualTo(500);
        assertThat(unknown.message()).contains("no such cluster node 'pve9'");
        TestClient.Resp elsewhere = client.post("/nodes/pve2/qemu/" + vm + "/migrate", "target", "pve3");
        assertThat(elsewhere.status()).isEqualTo(500);
        assertThat(elsewhere.message()).contains("does not exist");
    }
}
