package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** VMID allocation, clone tasks, the clone lock, and task status. */
class CloneTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withDescription("golden image"))
                .template(TemplateSpec.of(9001, "pve2").withSharedStorage(false))
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
        for (VmView vm : sim.vms()) {
            if (!vm.template()) {
                sim.faults().destroyVm(vm.vmid());
            }
        }
    }

    private String nextId() {
        TestClient.Resp r = client.get("/cluster/nextid");
        assertThat(r.data().isTextual()).as("nextid is a JSON string").isTrue();
        return r.data().asText();
    }

    @Test
    void nextIdIsTheLowestFreeIdAsAString() {
        assertThat(nextId()).isEqualTo("100");
        TestClient.Resp taken = client.get("/cluster/nextid?vmid=9000");
        assertThat(taken.status()).isEqualTo(400);
        assertThat(taken.error("vmid")).isEqualTo("VM 9000 already exists");
        assertThat(client.get("/cluster/nextid?vmid=555").data().asText()).isEqualTo("555");
    }

    @Test
    void cloneCopiesTheTemplateMovesToTargetAndJoinsThePool() {
        String id = nextId();
        TestClient.Resp r = client.post(
                "/nodes/pve1/qemu/9000/clone",
                "newid",
                id,
                "name",
                "bigfleet-a",
                "description",
                "BigFleet managed VM. machine_id=x/1",
                "target",
                "pve2",
                "pool",
                "bigfleet",
                "full",
                "1");
        assertThat(r.status()).isEqualTo(200);
        String upid = r.data().asText();
        assertThat(upid)
                .matches("UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8,9}:[0-9A-F]{8}:qmclone:9000:bigfleet@pve!autoscaler:");
        JsonNode done = client.awaitTask(upid);
        assertThat(done.get("exitstatus").asText()).isEqualTo("OK");
        assertThat(done.get("user").asText()).isEqualTo("bigfleet@pve");
        assertThat(done.get("tokenid").asText()).isEqualTo("autoscaler");
        assertThat(done.get("type").asText()).isEqualTo("qmclone");

        VmView vm = sim.vm(Integer.parseInt(id)).orElseThrow();
        assertThat(vm.node()).isEqualTo("pve2");
        assertThat(vm.name()).isEqualTo("bigfleet-a");
        assertThat(vm.description()).isEqualTo("BigFleet managed VM. machine_id=x/1");
        assertThat(vm.tags()).containsExactly("k8s", "template");
        assertThat(vm.template()).isFalse();
        assertThat(vm.lock()).isNull();
        assertThat(vm.pool()).isEqualTo("bigfleet");
        assertThat(vm.config()).containsEntry("agent", "1").containsEntry("memory", "2048");
        assertThat(client.get("/pools/bigfleet")
                        .data()
                        .get("members")
                        .get(0)
                        .get("vmid")
                        .asInt())
                .isEqualTo(vm.vmid());
        // The description is inherited when none is given; the name defaults from the source.
        String id2 = nextId();
        client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id2));
        VmView copy = sim.vm(Integer.parseInt(id2)).orElseThrow();
        assertThat(copy.name()).isEqualTo("Copy-of-VM-tmpl-ubuntu-k8s");
        assertThat(copy.description()).isEqualTo("golden image");
        assertThat(copy.node()).isEqualTo("pve1");
    }

    @Test
    void whileTheCloneRunsTheVmIsLockedAndNameless() {
        sim.faults().slowTasks(TaskKind.CLONE, 1, Duration.ofMillis(800));
        String id = nextId();
        String upid = client.post("/nodes/pve1/qemu/9000/clone", "newid", id, "name", "n1", "target", "pve2")
                .data()
                .asText();

        JsonNode entry = null;
        for (JsonNode e : client.get("/cluster/resources?type=vm").data()) {
            if (e.get("vmid").asText().equals(id)) {
                entry = e;
            }
        }
        assertThat(entry).isNotNull();
        assertThat(entry.get("node").asText()).isEqualTo("pve1");
        assertThat(entry.get("status").asText()).isEqualTo("unknown");
        assertThat(entry.get("lock").asText()).isEqualTo("clone");
        assertThat(entry.has("name")).isFalse();

        TestClient.Resp put = client.put("/nodes/pve1/qemu/" + id + "/config", "cores", "4");
        assertThat(put.status()).isEqualTo(500);
        assertThat(put.message()).isEqualTo("VM is locked (clone)\n");
        assertThat(client.run(client.post("/nodes/pve1/qemu/" + id + "/status/start")))
                .isEqualTo("VM is locked (clone)");
        assertThat(client.run(client.delete("/nodes/pve1/qemu/" + id))).isEqualTo("VM is locked (clone)");

        TestClient.Resp running = client.get("/nodes/pve1/tasks/" + upid + "/status");
        assertThat(running.data().get("status").asText()).isEqualTo("running");
        assertThat(running.data().has("exitstatus")).isFalse();

        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
        assertThat(client.put("/nodes/pve2/qemu/" + id + "/config", "cores", "4")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void cloneOntoAnUsedIdFailsAtOnce() {
        String id = nextId();
        client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id));
        TestClient.Resp again = client.post("/nodes/pve1/qemu/9000/clone", "newid", id);
        assertThat(again.status()).isEqualTo(500);
        assertThat(again.message()).isEqualTo("unable to create VM " + id + ": config file already exists\n");
    }

    @Test
    void cloneOntoAnIdHeldOnAnotherNodeFailsInTheTask() {
        sim.faults().createForeignVm(ForeignVm.of(300, "pve2"));
        String status = client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", "300"));
        assertThat(status)
                .isEqualTo("close (rename) atomic file '/etc/pve/nodes/pve1/qemu-server/300.conf' failed: File exists");
        assertThat(sim.vm(300).orElseThrow().name()).isEqualTo("foreign-300");
    }

    @Test
    void cloneParameterChecks() {
        TestClient.Resp noId = client.post("/nodes/pve1/qemu/9000/clone", "name", "x");
        assertThat(noId.status()).isEqualTo(400);
        assertThat(noId.error("newid")).isEqualTo("property is missing and it is not optional");

        TestClient.Resp badName = client.post("/nodes/pve1/qemu/9000/clone", "newid", "120", "name", "under_score");
        assertThat(badName.status()).isEqualTo(400);
        assertThat(badName.json().get("errors").has("name")).isTrue();

        TestClient.Resp lowId = client.post("/nodes/pve1/qemu/9000/clone", "newid", "99");
        assertThat(lowId.error("newid")).isEqualTo("value must have a minimum value of 100");

        TestClient.Resp wrongNode = client.post("/nodes/pve2/qemu/9000/clone", "newid", "120");
        assertThat(wrongNode.status()).isEqualTo(500);
        assertThat(wrongNode.message()).isEqualTo("unable to find configuration file for VM 9000 on node 'pve2'\n");

        TestClient.Resp noTarget = client.post("/nodes/pve1/qemu/9000/clone", "newid", "120", "target", "pve9");
        assertThat(noTarget.message()).isEqualTo("no such cluster node 'pve9'\n");

        TestClient.Resp local = client.post("/nodes/pve2/qemu/9001/clone", "newid", "120", "target", "pve1");
        assertThat(local.message()).isEqualTo("can't clone VM to node 'pve1' (VM uses local storage)\n");

        TestClient.Resp noPool = client.post("/nodes/pve1/qemu/9000/clone", "newid", "120", "pool", "nope");
        assertThat(noPool.status()).isEqualTo(403);
        assertThat(sim.vm(120)).isEmpty();
    }

    @Test
    void taskStatusErrors() {
        TestClient.Resp garbage = client.get("/nodes/pve1/tasks/not-a-upid/status");
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.error("upid")).isEqualTo("unable to parse worker upid");
        TestClient.Resp unknown =
                client.get("/nodes/pve1/tasks/UPID:pve1:0003A2F1:0B7C41D2:66F1A0B3:qmclone:9000:x@pve!y:/status");
        assertThat(unknown.error("upid")).isEqualTo("no such task");
        String upid = client.post("/nodes/pve1/qemu/9000/clone", "newid", nextId())
                .data()
                .asText();
        // Task logs live on the node that ran the task.
        assertThat(client.get("/nodes/pve2/tasks/" + upid + "/status").error("upid"))
                .isEqualTo("no such task");
        client.awaitTask(upid);
    }

    @Test
    void freedIdsAreReusedAtOnce() {
        String id = nextId();
        client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id));
        assertThat(nextId()).isNotEqualTo(id);
        assertThat(client.run(client.delete("/nodes/pve1/qemu/" + id + "?purge=1")))
                .isEqualTo("OK");
        assertThat(nextId()).isEqualTo(id);
    }
}
