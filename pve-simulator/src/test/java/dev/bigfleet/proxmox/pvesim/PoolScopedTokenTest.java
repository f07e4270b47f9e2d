package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A token limited to one pool: 403 instead of 500, and VMs invisible until they join the pool. */
class PoolScopedTokenTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .pool("bigfleet")
                .pool("other")
                .poolScopedToken("bigfleet")
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
        sim.faults().createForeignVm(ForeignVm.of(800, "pve1").inPool("other"));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void vmsOutsideThePoolAnswer403EvenWhenMissing() {
        TestClient.Resp foreign = client.get("/nodes/pve1/qemu/800/config");
        assertThat(foreign.status()).isEqualTo(403);
        assertThat(foreign.message()).isEqualTo("Permission check failed (/vms/800, VM.Audit)\n");
        assertThat(client.delete("/nodes/pve1/qemu/4242").message())
                .isEqualTo("Permission check failed (/vms/4242, VM.Allocate)\n");
        assertThat(client.post("/nodes/pve1/qemu/4242/status/start").status()).isEqualTo(403);
        assertThat(client.get("/cluster/resources?type=vm").text())
                .doesNotContain("\"vmid\":800")
                .contains("\"vmid\":9000");
        assertThat(client.get("/pools/other").status()).isEqualTo(403);
    }

    @Test
    void cloneMustNameThePoolAndIsInvisibleUntilItEnds() {
        TestClient.Resp noPool = client.post("/nodes/pve1/qemu/9000/clone", "newid", "810");
        // neither alternative of the declared "or" passes: Proxmox names none of them
        assertThat(noPool.status()).isEqualTo(403);
        assertThat(noPool.message()).isEqualTo("Permission check failed\n");

        sim.faults().slowTasks(TaskKind.CLONE, 1, Duration.ofMillis(400));
        String upid = client.post("/nodes/pve1/qemu/9000/clone", "newid", "811", "pool", "bigfleet")
                .data()
                .asText();
        assertThat(client.get("/nodes/pve1/qemu/811/config").status()).isEqualTo(403);
        assertThat(client.get("/cluster/resources?type=vm").text()).doesNotContain("\"vmid\":811");
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
        assertThat(client.get("/nodes/pve1/qemu/811/config").status()).isEqualTo(200);

        assertThat(client.run(client.delete("/nodes/pve1/qemu/811?purge=1"))).isEqualTo("OK");
        assertThat(client.get("/nodes/pve1/qemu/811/config").status())
                .as("purge drops the membership")
                .isEqualTo(403);
    }
}
