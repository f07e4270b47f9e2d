package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Start/stop tasks, status/current, and the guest agent behind its boot delay. */
class PowerAndAgentTest {
    static PveSimulator sim;
    static TestClient client;
    static int nextId = 300;

    @BeforeAll
    static void start() throws Exception {
        // 40 ms unit: start 40 ms, agent boot 200 ms, exec 20 ms.
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .template(TemplateSpec.of(9100, "pve1").withAgent(false))
                .latency(Duration.ofMillis(40))
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private String cloneOf(int template) {
        int id = nextId++;
        assertThat(client.run(client.post("/nodes/pve1/qemu/" + template + "/clone", "newid", Integer.toString(id))))
                .isEqualTo("OK");
        return "/nodes/pve1/qemu/" + id;
    }

    private String runningVmWithAgent() {
        String vm = cloneOf(9000);
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        awaitAgent(vm);
        return vm;
    }

    private void awaitAgent(String vm) {
        for (int i = 0; i < 200; i++) {
            if (client.post(vm + "/agent/ping").status() == 200) {
                return;
            }
            TestClient.sleep(10);
        }
        throw new AssertionError("agent never came up");
    }

    @Test
    void startStopAndStatusCurrent() {
        String vm = cloneOf(9000);
        JsonNode before = client.get(vm + "/status/current").data();
        assertThat(before.get("status").asText()).isEqualTo("stopped");
        assertThat(before.get("qmpstatus").asText()).isEqualTo("stopped");
        assertThat(before.get("agent").asInt()).isEqualTo(1);

        String upid = client.post(vm + "/status/start").data().asText();
        assertThat(upid).contains(":qmstart:");
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
        JsonNode after = client.get(vm + "/status/current").data();
        assertThat(after.get("status").asText()).isEqualTo("running");
        assertThat(after.get("qmpstatus").asText()).isEqualTo("running");
        assertThat(client.run(client.post(vm + "/status/start"))).matches("VM \\d+ already running");

        assertThat(client.run(client.post(vm + "/status/stop"))).isEqualTo("OK");
        assertThat(client.get(vm + "/status/current").data().get("status").asText())
                .isEqualTo("stopped");
        assertThat(client.run(client.post(vm + "/status/stop")))
                .as("stopping a stopped VM is a no-op")
                .isEqualTo("OK");
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        assertThat(client.run(client.post(vm + "/status/shutdown", "forceStop", "1", "timeout", "30")))
                .isEqualTo("OK");
        assertThat(sim.vm(Integer.parseInt(vm.substring(vm.lastIndexOf('/') + 1)))
                        .orElseThrow()
                        .running())
                .isFalse();
    }

    @Test
    void powerCallsOnAMissingVmFailInTheTask() {
        TestClient.Resp r = client.post("/nodes/pve1/qemu/4711/status/start");
        assertThat(r.status()).isEqualTo(200);
        assertThat(client.run(r)).isEqualTo("Configuration file 'nodes/pve1/qemu-server/4711.conf' does not exist");
        assertThat(client.run(client.post("/nodes/pve1/qemu/4711/status/stop")))
                .isEqualTo("Configuration file 'nodes/pve1/qemu-server/4711.conf' does not exist");
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/status/start")))
                .isEqualTo("you can't start a vm if it's a template");
    }

    @Test
    void rootOnlyStartOptionsAreRefused() {
        assertThat(client.post("/nodes/pve1/qemu/9000/status/start", "skiplock", "1")
                        .error("skiplock"))
                .isEqualTo("Only root may use this option.");
    }

    @Test
    void agentAnswersOnlyAfterTheBootDelay() {
        String vm = cloneOf(9000);
        TestClient.Resp stopped = client.post(vm + "/agent/ping");
        assertThat(stopped.status()).isEqualTo(500);
        assertThat(stopped.message()).matches("VM \\d+ is not running\n");

        client.run(client.post(vm + "/status/start"));
        TestClient.Resp booting = client.post(vm + "/agent/ping");
        assertThat(booting.status()).isEqualTo(500);
        assertThat(booting.message()).isEqualTo("QEMU guest agent is not running\n");
        awaitAgent(vm);
        TestClient.Resp up = client.post(vm + "/agent/ping");
        assertThat(up.data().get("result").isObject()).isTrue();
        assertThat(client.get(vm + "/agent/get-osinfo")
                        .data()
                        .get("result")
                        .get("id")
                        .asText())
                .isEqualTo("ubuntu");
    }

    @Test
    void noAgentConfiguredComesFirst() {
        String vm = cloneOf(9100);
        assertThat(client.post(vm + "/agent/ping").message()).isEqualTo("No QEMU guest agent configured\n");
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        assertThat(client.post(vm + "/agent/ping").message()).isEqualTo("No QEMU guest agent configured\n");
    }

    @Test
    void agentEnabledWhileRunningNeedsARestart() {
        String vm = cloneOf(9100);
        client.run(client.post(vm + "/status/start"));
        client.put(vm + "/config", "agent", "1");
        assertThat(client.post(vm + "/agent/ping").message()).isEqualTo("No QEMU guest agent configured\n");
        client.run(client.post(vm + "/status/stop"));
        client.run(client.post(vm + "/status/start"));
        awaitAgent(vm);
    }

    @Test
    void fileWriteStoresBytesAndCreatesWorldWritableFiles() {
        String vm = runningVmWithAgent();
        int vmid = Integer.parseInt(vm.substring(vm.lastIndexOf('/') + 1));
        byte[] blob = {0, 1, 2, (byte) 0xFF, 'h', 'i'};
        TestClient.Resp w = client.post(
                vm + "/agent/file-write",
                "file",
                "/run/blob",
                "content",
                Base64.getEncoder().encodeToString(blob),
                "encode",
                "0");
        assertThat(w.status()).isEqualTo(200);
        GuestFile f = sim.vm(vmid).orElseThrow().files().get("/run/blob");
        assertThat(f.content()).isEqualTo(blob);
        assertThat(f.mode()).isEqualTo(0666);

        // encode=1 (the default): Proxmox encodes the text itself, so the file holds the text.
        client.post(vm + "/agent/file-write", "file", "/etc/motd", "content", "aGk=");
        assertThat(sim.vm(vmid).orElseThrow().files().get("/etc/motd").text()).isEqualTo("aGk=");

        TestClient.Resp big = client.post(vm + "/agent/file-write", "file", "/x", "content", "a".repeat(61441));
        assertThat(big.status()).isEqualTo(400);
        assertThat(big.error("content")).isEqualTo("value may only be 61440 characters long");
    }

    @Test
    void execReturnsAPidAndExecStatusReportsTheExitOnce() {
        String vm = runningVmWithAgent();
        TestClient.Resp started = client.post(
                vm + "/agent/exec",
                "command",
                "/bin/sh",
                "command",
                "-c",
                "command",
                "echo hello; echo oops >&2; exit 3");
        int pid = started.data().get("pid").asInt();
        assertThat(pid).isPositive();
        JsonNode s = client.get(vm + "/agent/exec-status?pid=" + pid).data();
        assertThat(s.get("exited").asInt()).isEqualTo(0);
        TestClient.sleep(60);
        JsonNode done = client.get(vm + "/agent/exec-status?pid=" + pid).data();
        assertThat(done.get("exited").asInt()).isEqualTo(1);
        assertThat(done.get("exitcode").asInt()).isEqualTo(3);
        assertThat(done.get("out-data").asText()).isEqualTo("hello\n");
        assertThat(done.get("err-data").asText()).isEqualTo("oops\n");
        TestClient.Resp again = client.get(vm + "/agent/exec-status?pid=" + pid);
        assertThat(again.status()).isEqualTo(500);
        assertThat(again.message())
                .matches("VM \\d+ qga command 'guest-exec-status' failed - Invalid parameter 'pid'\n");

        int vmid = Integer.parseInt(vm.substring(vm.lastIndexOf('/') + 1));
        GuestExec recorded = sim.vm(vmid).orElseThrow().execs().get(0);
        assertThat(recorded.argv()).containsExactly("/bin/sh", "-c", "echo hello; echo oops >&2; exit 3");
    }

    @Test
    void execAcceptsAJsonArrayAndStdin() {
        String vm = runningVmWithAgent();
        int vmid = Integer.parseInt(vm.substring(vm.lastIndexOf('/') + 1));
        TestClient.Resp r = client.postJson(
                vm + "/agent/exec",
                "{\"command\":[\"/bin/sh\",\"-c\",\"umask 077; cat > /run/secret\"],\"input-data\":\"s3cr3t\"}");
        assertThat(r.status()).isEqualTo(200);
        GuestFile f = sim.vm(vmid).orElseThrow().files().get("/run/secret");
        assertThat(f.text()).isEqualTo("s3cr3t");
        assertThat(f.mode()).isEqualTo(0600);
        assertThat(new String(f.content(), StandardCharsets.UTF_8)).isEqualTo("s3cr3t");
    }

    @Test
    void stoppingForgetsPidsAndRunFiles() {
        String vm = runningVmWithAgent();
        int vmid = Integer.parseInt(vm.substring(vm.lastIndexOf('/') + 1));
        client.post(vm + "/agent/file-write", "file", "/run/x", "content", "x");
        client.post(vm + "/agent/file-write", "file", "/etc/keep", "content", "k");
        int pid = client.post(vm + "/agent/exec", "command", "sleep")
                .data()
                .get("pid")
                .asInt();
        client.run(client.post(vm + "/status/stop"));
        client.run(client.post(vm + "/status/start"));
        awaitAgent(vm);
        assertThat(client.get(vm + "/agent/exec-status?pid=" + pid).status()).isEqualTo(500);
        assertThat(sim.vm(vmid).orElseThrow().files()).containsOnlyKeys("/etc/keep");
    }
}
