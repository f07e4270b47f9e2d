package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Destroy, pools, /cluster/resources and node status. */
class DestroyAndResourcesTest {
    static PveSimulator sim;
    static TestClient client;
    static int nextId = 400;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .node(NodeSpec.of("pve1").withCapacity(16, 64L << 30))
                .nodes("pve2")
                .templateVmid(9000)
                .pool("bigfleet")
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
        sim.faults().createContainer(500, "pve2", "dns");
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private int cloneVm() {
        int id = nextId++;
        assertThat(client.run(
                        client.post("/nodes/pve1/qemu/9000/clone", "newid", Integer.toString(id), "pool", "bigfleet")))
                .isEqualTo("OK");
        return id;
    }

    @Test
    void destroyPurgesAndTheVmVanishes() {
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id;
        client.run(client.post(path + "/status/start"));
        TestClient.Resp running = client.delete(path + "?purge=1");
        assertThat(running.status()).isEqualTo(500);
        assertThat(running.message()).isEqualTo("VM " + id + " is running - destroy failed\n");
        client.run(client.post(path + "/status/stop"));
        String upid = client.delete(path + "?purge=1&destroy-unreferenced-disks=1")
                .data()
                .asText();
        assertThat(upid).contains(":qmdestroy:" + id + ":");
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
        assertThat(sim.vm(id)).isEmpty();
        assertThat(client.get(path + "/config").message()).contains("does not exist");
        TestClient.Resp gone = client.delete(path);
        assertThat(gone.status()).isEqualTo(500);
        assertThat(gone.message())
                .isEqualTo("Configuration file 'nodes/pve1/qemu-server/" + id + ".conf' does not exist\n");
        assertThat(client.get("/pools/bigfleet").data().get("members").toString())
                .doesNotContain("\"vmid\":" + id);
    }

    @Test
    void destroyWithoutPurgeLeavesThePoolEntry() {
        int id = cloneVm();
        client.run(client.delete("/nodes/pve1/qemu/" + id));
        // The next VM with that id inherits the stale membership, as on a real cluster.
        sim.faults().createForeignVm(ForeignVm.of(id, "pve1"));
        assertThat(sim.vm(id).orElseThrow().pool()).isEqualTo("bigfleet");
        sim.faults().destroyVm(id);
    }

    @Test
    void resourcesListQemuAndLxcWithLiveTagsAndPool() {
        int id = cloneVm();
        client.put("/nodes/pve1/qemu/" + id + "/config", "tags", "bigfleet");
        JsonNode list = client.get("/cluster/resources?type=vm").data();
        List<String> types = new ArrayList<>();
        JsonNode mine = null;
        for (JsonNode e : list) {
            types.add(e.get("type").asText());
            if (e.get("vmid").asInt() == id) {
                mine = e;
            }
        }
        assertThat(types).contains("qemu", "lxc").doesNotContain("node", "storage");
        assertThat(mine.get("id").asText()).isEqualTo("qemu/" + id);
        assertThat(mine.get("tags").asText()).isEqualTo("bigfleet");
        assertThat(mine.get("pool").asText()).isEqualTo("bigfleet");
        assertThat(mine.get("template").asInt()).isEqualTo(0);
        assertThat(mine.get("maxmem").asLong()).isEqualTo(2048L << 20);
        assertThat(client.get("/cluster/resources?type=node").data()).hasSize(2);
        assertThat(client.get("/cluster/resources?type=bogus").status()).isEqualTo(400);
        assertThat(client.get("/cluster/nextid?vmid=500").status())
                .as("containers hold their VMID")
                .isEqualTo(400);
    }

    @Test
    void nodeStatusCountsRunningVmMemory() {
        JsonNode idle = client.get("/nodes/pve1/status").data();
        assertThat(idle.get("memory").get("total").asLong()).isEqualTo(64L << 30);
        long usedBefore = idle.get("memory").get("used").asLong();
        int id = cloneVm();
        client.run(client.post("/nodes/pve1/qemu/" + id + "/status/start"));
        JsonNode busy = client.get("/nodes/pve1/status").data();
        assertThat(busy.get("memory").get("used").asLong()).isEqualTo(usedBefore + (2048L << 20));
        assertThat(busy.get("cpuinfo").get("cpus").asInt()).isEqualTo(16);
        JsonNode nodes = client.get("/nodes").data();
        assertThat(nodes.get(0).get("maxmem").asLong()).isEqualTo(64L << 30);
        assertThat(nodes.get(0).get("ssl_fingerprint").asText()).isEqualTo(sim.fingerprint());
        client.run(client.post("/nodes/pve1/qemu/" + id + "/status/stop"));
    }

    @Test
    void clusterStatusAndPools() {
        JsonNode status = client.get("/cluster/status").data();
        assertThat(status.get(0).get("type").asText()).isEqualTo("cluster");
        assertThat(status).hasSize(3);
        assertThat(client.get("/pools").data().get(0).get("poolid").asText()).isEqualTo("bigfleet");
        assertThat(client.get("/pools?poolid=bigfleet").data()).hasSize(1);
        assertThat(client.get("/pools/nope").message()).isEqualTo("pool 'nope' does not exist\n");
    }
}
