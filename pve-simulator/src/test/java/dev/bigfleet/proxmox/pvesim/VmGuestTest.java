package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The real-VM lane: a started VM is a QEMU virtual machine (software emulation) booting the guest
 * image, reached through the agent API as qemu-server reaches it; a linked clone is a qcow2 overlay
 * of its template's disk. Booting takes tens of seconds of real time, mostly spent in QEMU, so it
 * runs in a test JVM of its own beside the module's other tests, and {@code -Pquick} leaves it out
 * (tag {@code vm}).
 */
@Tag("vm")
class VmGuestTest {
    private static final Duration BOOT = Duration.ofMinutes(3);

    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .guests(GuestMode.VM)
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private void awaitAgent(String vm) {
        long deadline = System.nanoTime() + BOOT.toNanos();
        while (System.nanoTime() < deadline) {
            if (client.post(vm + "/agent/ping").status() == 200) {
                return;
            }
        }
        throw new AssertionError("the guest's agent did not answer within " + BOOT.toSeconds() + "s");
    }

    @Test
    void aStartedVmBootsItsGuestWhoseAgentRunsCommandsAndAStopEndsIt() {
        assertThat(client.run(
                        client.post("/nodes/pve1/qemu/9000/clone", "newid", "101", "name", "vm-lane-101", "full", "0")))
                .isEqualTo("OK");
        String vm = "/nodes/pve1/qemu/101";
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        awaitAgent(vm);

        JsonNode os = client.get(vm + "/agent/get-osinfo").data().get("result");
        assertThat(os.get("id").asText()).isEqualTo("debian");
        assertThat(os.get("kernel-release").asText()).endsWith("-amd64");
        GuestConsole guest = sim.guest(101);
        assertThat(guest.sh("hostname").strip()).isEqualTo("vm-lane-101");
        assertThat(client.post(vm + "/agent/file-write", "file", "/root/note", "content", "kept")
                        .status())
                .isEqualTo(200);
        assertThat(guest.mode("/root/note")).hasValue("666");

        // a shutdown goes through the agent; the disk keeps what the guest wrote
        assertThat(client.run(client.post(vm + "/status/shutdown"))).isEqualTo("OK");
        assertThat(client.post(vm + "/agent/ping").message()).isEqualTo("VM 101 is not running\n");
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        awaitAgent(vm);
        assertThat(guest.readText("/root/note")).hasValue("kept");
        assertThat(client.run(client.post(vm + "/status/stop"))).isEqualTo("OK");
        assertThat(sim.vm(101).orElseThrow().agentUp()).isFalse();
    }
}
