package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Start/stop tasks, status/current, and the agent calls against each VM's real guest (Debian's
 * qemu-guest-agent in a sandbox): what the agent itself decides (modes, one-shot exit statuses,
 * signals, refusals) and what qemu-server adds (the ping first, the texts of its errors).
 */
class PowerAndAgentTest {
    static PveSimulator sim;
    static TestClient client;
    static int nextId = 300;

    @BeforeAll
    static void start() throws Exception {
        // 40 ms unit: start 40 ms, guest boot 200 ms.
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

    private static int vmid(String vm) {
        return Integer.parseInt(vm.substring(vm.lastIndexOf('/') + 1));
    }

    private int exec(String vm, String... argv) {
        String[] form = new String[argv.length * 2];
        for (int i = 0; i < argv.length; i++) {
            form[2 * i] = "command";
            form[2 * i + 1] = argv[i];
        }
        TestClient.Resp r = client.post(vm + "/agent/exec", form);
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        return r.data().get("pid").asInt();
    }

    private JsonNode awaitExit(String vm, int pid) {
        for (int i = 0; i < 500; i++) {
            TestClient.Resp r = client.get(vm + "/agent/exec-status?pid=" + pid);
            assertThat(r.status()).as(r.text()).isEqualTo(200);
            if (r.data().get("exited").asInt() == 1) {
                return r.data();
            }
            TestClient.sleep(10);
        }
        throw new AssertionError("pid " + pid + " did not exit");
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
    void aPingWhileTheGuestBootsIsAnsweredOnceItsAgentListens() {
        String vm = cloneOf(9000);
        TestClient.Resp stopped = client.post(vm + "/agent/ping");
        assertThat(stopped.status()).isEqualTo(500);
        assertThat(stopped.message()).matches("VM \\d+ is not running\n");

        client.run(client.post(vm + "/status/start"));
        assertThat(sim.vm(vmid(vm)).orElseThrow().agentUp()).isFalse();
        // QEMU holds what is written to the channel until the agent opens it: 200 ms < 3 s
        TestClient.Resp booting = client.post(vm + "/agent/ping");
        assertThat(booting.status()).as(booting.text()).isEqualTo(200);
        assertThat(booting.data().get("result").isObject()).isTrue();
        assertThat(sim.vm(vmid(vm)).orElseThrow().agentUp()).isTrue();
        JsonNode os = client.get(vm + "/agent/get-osinfo").data().get("result");
        assertThat(os.get("id").asText()).isEqualTo("debian");
        assertThat(os.get("version-id").asText()).isEqualTo("12");
        assertThat(client.get(vm + "/agent/get-host-name")
                        .data()
                        .get("result")
                        .get("host-name")
                        .asText())
                .isEqualTo(sim.vm(vmid(vm)).orElseThrow().name());
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
    void fileWriteCreatesFilesWorldWritableAndKeepsAnExistingFilesMode() {
        String vm = runningVmWithAgent();
        GuestConsole guest = sim.guest(vmid(vm));
        byte[] blob = {0, 1, 2, (byte) 0xFF, 'h', 'i'};
        TestClient.Resp w = client.post(
                vm + "/agent/file-write",
                "file",
                "/run/blob",
                "content",
                Base64.getEncoder().encodeToString(blob),
                "encode",
                "0");
        assertThat(w.status()).as(w.text()).isEqualTo(200);
        assertThat(guest.read("/run/blob")).hasValue(blob);
        // the agent creates files 0666 whatever the umask
        assertThat(guest.mode("/run/blob")).hasValue("666");

        guest.sh("umask 077 && : > /run/private");
        client.post(vm + "/agent/file-write", "file", "/run/private", "content", "s3cr3t");
        assertThat(guest.readText("/run/private")).hasValue("s3cr3t");
        assertThat(guest.mode("/run/private")).as("rewriting keeps the mode").hasValue("600");

        // encode=1 (the default): Proxmox encodes the text itself, so the file holds the text
        client.post(vm + "/agent/file-write", "file", "/etc/motd", "content", "aGk=");
        assertThat(guest.readText("/etc/motd")).hasValue("aGk=");
        String long_ = "0123456789".repeat(100);
        client.post(vm + "/agent/file-write", "file", "/etc/long", "content", long_);
        assertThat(guest.readText("/etc/long")).hasValue(long_);

        TestClient.Resp big = client.post(vm + "/agent/file-write", "file", "/x", "content", "a".repeat(61441));
        assertThat(big.status()).isEqualTo(400);
        assertThat(big.error("content")).isEqualTo("value may only be 61440 characters long");

        TestClient.Resp notBase64 =
                client.post(vm + "/agent/file-write", "file", "/run/x", "content", "!!", "encode", "0");
        assertThat(notBase64.status()).isEqualTo(500);
        assertThat(notBase64.message()).isEqualTo("Agent error: Base64 data contains invalid characters\n");

        TestClient.Resp noDir = client.post(vm + "/agent/file-write", "file", "/nonexistent/x", "content", "x");
        assertThat(noDir.status()).isEqualTo(500);
        assertThat(noDir.message())
                .isEqualTo(
                        "Agent error: failed to open file '/nonexistent/x' (mode: 'wb'): No such file or directory\n");
    }

    @Test
    void fileReadReturnsTheContentAndSaysWhenItStoppedShort() {
        String vm = runningVmWithAgent();
        sim.guest(vmid(vm)).writeText("/etc/greeting", "hello guest\n");
        JsonNode all = client.get(vm + "/agent/file-read?file=/etc/greeting").data();
        assertThat(all.get("content").asText()).isEqualTo("hello guest\n");
        assertThat(all.get("bytes-read").asInt()).isEqualTo(12);
        assertThat(all.has("truncated")).isFalse();
        JsonNode part = client.get(vm + "/agent/file-read?file=/etc/greeting&offset=6&count=5")
                .data();
        assertThat(part.get("content").asText()).isEqualTo("guest");
        assertThat(part.get("truncated").asInt()).isEqualTo(1);
        assertThat(client.get(vm + "/agent/file-read?file=/etc/nothing").message())
                .isEqualTo("Agent error: failed to open file '/etc/nothing' (mode: 'r'): No such file or directory\n");
    }

    @Test
    void execStatusAnswersAFinishedPidOnceThenInvalidParameter() {
        String vm = runningVmWithAgent();
        int pid = exec(vm, "/bin/sh", "-c", "sleep 0.3; echo hello; echo oops >&2; exit 3");
        assertThat(pid).isPositive();
        JsonNode s = client.get(vm + "/agent/exec-status?pid=" + pid).data();
        assertThat(s.get("exited").asInt()).isEqualTo(0);
        JsonNode done = awaitExit(vm, pid);
        assertThat(done.get("exitcode").asInt()).isEqualTo(3);
        assertThat(done.has("signal")).isFalse();
        assertThat(done.get("out-data").asText()).isEqualTo("hello\n");
        assertThat(done.get("err-data").asText()).isEqualTo("oops\n");
        TestClient.Resp again = client.get(vm + "/agent/exec-status?pid=" + pid);
        assertThat(again.status()).isEqualTo(500);
        assertThat(again.message()).isEqualTo("Agent error: Invalid parameter 'pid'\n");

        GuestExec recorded = sim.vm(vmid(vm)).orElseThrow().execs().get(0);
        assertThat(recorded.argv()).containsExactly("/bin/sh", "-c", "sleep 0.3; echo hello; echo oops >&2; exit 3");
        assertThat(recorded.pid()).isEqualTo(pid);
        assertThat(recorded.result()).isEqualTo(new ExecResult(3, null, "hello\n", "oops\n"));
    }

    @Test
    void aKilledProcessReportsItsSignalAndNoExitCode() {
        String vm = runningVmWithAgent();
        JsonNode done = awaitExit(vm, exec(vm, "/bin/sh", "-c", "kill -9 $$"));
        assertThat(done.get("signal").asInt()).isEqualTo(9);
        assertThat(done.has("exitcode")).isFalse();
    }

    @Test
    void theAgentRefusesWhatItCannotRun() {
        String vm = runningVmWithAgent();
        TestClient.Resp missing = client.post(vm + "/agent/exec", "command", "/usr/bin/no-such-program");
        assertThat(missing.status()).isEqualTo(500);
        assertThat(missing.message())
                .startsWith("Agent error: Guest agent command failed, error was 'Failed to execute child process")
                .contains("/usr/bin/no-such-program", "No such file or directory");
    }

    @Test
    void outputBeyondSixteenMebibytesIsCutAndFlagged() {
        String vm = runningVmWithAgent();
        JsonNode done = awaitExit(vm, exec(vm, "/bin/sh", "-c", "yes | head -c 17000000"));
        assertThat(done.get("exitcode").asInt()).isZero();
        assertThat(done.get("out-truncated").asInt()).isEqualTo(1);
        assertThat(done.get("out-data").asText()).hasSize(16 * 1024 * 1024).startsWith("y\ny\n");
    }

    @Test
    void execAcceptsAJsonArrayAndStdin() {
        String vm = runningVmWithAgent();
        TestClient.Resp r = client.postJson(
                vm + "/agent/exec",
                "{\"command\":[\"/bin/sh\",\"-c\",\"umask 077; cat > /run/secret\"],\"input-data\":\"s3cr3t\"}");
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        awaitExit(vm, r.data().get("pid").asInt());
        GuestConsole guest = sim.guest(vmid(vm));
        assertThat(guest.readText("/run/secret")).hasValue("s3cr3t");
        assertThat(guest.mode("/run/secret")).hasValue("600");

        TestClient.Resp tooMuch = client.post(vm + "/agent/exec", "command", "cat", "input-data", "x".repeat(65537));
        assertThat(tooMuch.status()).isEqualTo(400);
        assertThat(tooMuch.error("input-data")).isEqualTo("value may only be 65536 characters long");
    }

    @Test
    void stoppingForgetsPidsAndRunButKeepsTheDisk() {
        String vm = runningVmWithAgent();
        client.post(vm + "/agent/file-write", "file", "/run/x", "content", "x");
        client.post(vm + "/agent/file-write", "file", "/etc/keep", "content", "k");
        int pid = exec(vm, "sleep", "100");
        client.run(client.post(vm + "/status/stop"));
        assertThat(sim.vm(vmid(vm)).orElseThrow().agentUp()).isFalse();
        client.run(client.post(vm + "/status/start"));
        awaitAgent(vm);
        assertThat(client.get(vm + "/agent/exec-status?pid=" + pid).message())
                .isEqualTo("Agent error: Invalid parameter 'pid'\n");
        GuestConsole guest = sim.guest(vmid(vm));
        assertThat(guest.read("/run/x")).isEmpty();
        assertThat(guest.readText("/etc/keep")).hasValue("k");
    }

    @Test
    void linkedClonesShareTheTemplateAndAFullCloneCopiesItsSource() {
        String a = runningVmWithAgent();
        String b = runningVmWithAgent();
        sim.guest(vmid(a)).writeText("/root/mine", "a");
        assertThat(sim.guest(vmid(b)).read("/root/mine")).isEmpty();
        assertThat(sim.guest(vmid(b)).readText("/usr/local/lib/bigfleet/drain-hook.sh"))
                .hasValueSatisfying(t -> assertThat(t).contains("kubectl"));

        client.run(client.post(a + "/status/stop"));
        int copy = nextId++;
        assertThat(client.run(client.post(a + "/clone", "newid", Integer.toString(copy), "full", "1")))
                .isEqualTo("OK");
        client.run(client.post(a + "/status/start"));
        awaitAgent(a);
        sim.guest(vmid(a)).writeText("/root/mine", "changed");
        String c = "/nodes/pve1/qemu/" + copy;
        client.run(client.post(c + "/status/start"));
        awaitAgent(c);
        assertThat(sim.guest(copy).readText("/root/mine")).hasValue("a");
        client.run(client.post(a + "/status/stop"));
        assertThat(client.run(client.delete(a))).isEqualTo("OK");
        assertThat(sim.guest(copy).readText("/root/mine"))
                .as("the copy outlives its source")
                .hasValue("a");
    }

    @Test
    void theTemplatesHooksRunInTheGuest() {
        String vm = runningVmWithAgent();
        GuestConsole guest = sim.guest(vmid(vm));
        guest.writeText("/etc/bigfleet/drain.kubeconfig", "apiVersion: v1\n");
        int pid = exec(vm, "/bin/sh", "/usr/local/lib/bigfleet/drain-hook.sh", "30");
        JsonNode done = awaitExit(vm, pid);
        assertThat(done.get("exitcode").asInt()).as(done.toString()).isZero();
        String node = sim.vm(vmid(vm)).orElseThrow().name();
        assertThat(done.get("out-data").asText()).isEqualTo("node/" + node + " cordoned\nnode/" + node + " drained\n");
        assertThat(List.of(guest.sh("hostname").strip())).containsExactly(node);
    }
}
