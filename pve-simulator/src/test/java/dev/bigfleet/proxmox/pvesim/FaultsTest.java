package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every injected fault, seen from the client's side. */
class FaultsTest {
    static PveSimulator sim;
    static TestClient client;
    static int nextId = 600;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .templateVmid(9000)
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @AfterEach
    void clear() {
        sim.faults().clear();
    }

    private String cloneVm() {
        String id = Integer.toString(nextId++);
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id)))
                .isEqualTo("OK");
        return "/nodes/pve1/qemu/" + id;
    }

    private String running() {
        String vm = cloneVm();
        client.run(client.post(vm + "/status/start"));
        return vm;
    }

    private static int vmid(String path) {
        return Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
    }

    @Test
    void failedCloneTaskLeavesNoVm() {
        sim.faults().failTasks(TaskKind.CLONE, 1);
        String status = client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", "650"));
        assertThat(status).isEqualTo("clone failed: simulated failure");
        assertThat(sim.vm(650)).isEmpty();
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", "650")))
                .isEqualTo("OK");
        sim.faults().destroyVm(650);
    }

    @Test
    void failedStartKeepsTheVmStoppedWithTheGivenText() {
        String vm = cloneVm();
        sim.faults().failTasks(TaskKind.START, 1, "start failed: QEMU exited with code 1");
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("start failed: QEMU exited with code 1");
        assertThat(sim.vm(vmid(vm)).orElseThrow().running()).isFalse();
    }

    @Test
    void slowTasksStayRunning() {
        String vm = cloneVm();
        sim.faults().slowTasks(TaskKind.STOP, 1, Duration.ofMillis(500));
        client.run(client.post(vm + "/status/start"));
        String upid = client.post(vm + "/status/stop").data().asText();
        TestClient.sleep(100);
        assertThat(client.get("/nodes/pve1/tasks/" + upid + "/status")
                        .data()
                        .get("status")
                        .asText())
                .isEqualTo("running");
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
    }

    @Test
    void failedRequestsAreAnsweredWithoutEffect() {
        sim.faults().failRequests("POST", "/nodes/pve1/qemu/9000/clone", 2, 500, "got timeout");
        TestClient.Resp first = client.post("/nodes/pve1/qemu/9000/clone", "newid", "660");
        assertThat(first.status()).isEqualTo(500);
        assertThat(first.message()).isEqualTo("got timeout\n");
        assertThat(client.post("/nodes/pve1/qemu/9000/clone", "newid", "660").status())
                .isEqualTo(500);
        assertThat(sim.vm(660)).isEmpty();
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", "660")))
                .isEqualTo("OK");
        sim.faults().destroyVm(660);
    }

    @Test
    void status595HasAnEmptyBody() {
        sim.faults().failRequests("*", "/cluster/resources", 1, 595, "No route to host");
        TestClient.Resp r = client.get("/cluster/resources");
        assertThat(r.status()).isEqualTo(595);
        assertThat(r.text()).isEmpty();
        assertThat(client.get("/cluster/resources").status()).isEqualTo(200);
    }

    @Test
    void offlineNodeAnswers595ButItsVmsStayListed() {
        String vm = cloneVm();
        sim.faults().nodeOnline("pve1", false);
        TestClient.Resp r = client.get(vm + "/config");
        assertThat(r.status()).isEqualTo(595);
        assertThat(client.get("/cluster/resources?type=vm").text()).contains("\"vmid\":" + vmid(vm));
        assertThat(client.get("/nodes").data().get(0).get("status").asText()).isEqualTo("offline");
        sim.faults().nodeOnline("pve1", true);
        assertThat(client.get(vm + "/config").status()).isEqualTo(200);
    }

    @Test
    void droppedResponseStillStartsTheClone() {
        sim.faults().dropResponses("POST", "/nodes/pve1/qemu/9000/clone", 1);
        assertThatThrownBy(() -> client.sendOrThrow(client.builder("/nodes/pve1/qemu/9000/clone")
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString("newid=670"))))
                .isInstanceOf(IOException.class);
        assertThat(sim.vm(670)).isPresent();
        assertThat(sim.requests().get(sim.requests().size() - 1).status()).isZero();
        assertThat(client.post("/nodes/pve1/qemu/9000/clone", "newid", "670").message())
                .isEqualTo("unable to create VM 670: config file already exists\n");
        TestClient.sleep(50);
        sim.faults().destroyVm(670);
    }

    @Test
    void aDroppedExecAnswerStillRunsTheCommandAndOtherCommandsAreAnswered() throws Exception {
        String vm = running();
        awaitAgent(vm);
        sim.faults().dropExecResponses("/bin/sh -c .*touch /run/cut.*", 1);

        TestClient.Resp other = client.post(vm + "/agent/exec", "command", "/bin/true");
        assertThat(other.status()).as("a command that does not match").isEqualTo(200);
        assertThatThrownBy(() -> client.sendOrThrow(client.builder(vm + "/agent/exec")
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "command=%2Fbin%2Fsh&command=-c&command=echo%20x%0Atouch%20%2Frun%2Fcut"))))
                .isInstanceOf(IOException.class);

        for (int i = 0; i < 100 && sim.guest(vmid(vm)).read("/run/cut").isEmpty(); i++) {
            TestClient.sleep(20);
        }
        assertThat(sim.guest(vmid(vm)).read("/run/cut")).as("the command ran").isPresent();
        assertThat(sim.vm(vmid(vm)).orElseThrow().execs()).hasSize(2);
        assertThat(client.post(vm + "/agent/exec", "command", "/bin/sh", "command", "-c", "command", "touch /run/cut")
                        .status())
                .as("the fault is used up")
                .isEqualTo(200);
    }

    @Test
    void delayedResponseAnswersLateWhileTheCloneIsAlreadyUnderWay() throws Exception {
        sim.faults().delayResponses("POST", "/nodes/pve1/qemu/9000/clone", 1, Duration.ofMillis(1500));
        var answer = CompletableFuture.supplyAsync(() -> client.post("/nodes/pve1/qemu/9000/clone", "newid", "671"));
        TestClient.sleep(500);
        assertThat(sim.vm(671)).as("the clone started before its answer").isPresent();
        assertThat(answer).isNotDone();
        assertThat(answer.get().status()).isEqualTo(200);
        assertThat(client.post("/nodes/pve1/qemu/9000/clone", "newid", "672").status())
                .as("the next request is answered at once")
                .isEqualTo(200);
        TestClient.sleep(50);
        sim.faults().destroyVm(671);
        sim.faults().destroyVm(672);
    }

    @Test
    void agentThatNeverComesUp() {
        String vm = running();
        awaitAgent(vm);
        sim.faults().agentNeverUp(vmid(vm));
        assertThat(client.post(vm + "/agent/ping").message()).isEqualTo("QEMU guest agent is not running\n");
        sim.faults().clear();
        assertThat(client.post(vm + "/agent/ping").status()).isEqualTo(200);

        sim.faults().agentNeverUpForNewVms(true);
        String fresh = running();
        assertThat(client.post(fresh + "/agent/ping").message()).isEqualTo("QEMU guest agent is not running\n");
    }

    private void awaitAgent(String vm) {
        for (int i = 0; i < 100; i++) {
            if (client.post(vm + "/agent/ping").status() == 200) {
                return;
            }
            TestClient.sleep(20);
        }
        throw new AssertionError("agent never came up");
    }

    @Test
    void aRestartedAgentHasForgottenTheCommandsOfTheOldOne() {
        String vm = running();
        awaitAgent(vm);
        int pid = client.post(vm + "/agent/exec", "command", "sleep", "command", "100")
                .data()
                .get("pid")
                .asInt();
        sim.faults().restartAgent(vmid(vm));
        awaitAgent(vm);
        assertThat(client.get(vm + "/agent/exec-status?pid=" + pid).message())
                .isEqualTo("Agent error: Invalid parameter 'pid'\n");
    }

    @Test
    void anOccupiedAgentSocketMakesOthersWait() {
        String vm = running();
        awaitAgent(vm);
        sim.faults().occupyAgent(vmid(vm), Duration.ofMillis(500));
        assertThat(client.post(vm + "/agent/ping").status())
                .as("served once the other client lets go")
                .isEqualTo(200);
        sim.faults().occupyAgent(vmid(vm), Duration.ofSeconds(4));
        assertThat(client.post(vm + "/agent/ping").message()).isEqualTo("QEMU guest agent is not running\n");
        TestClient.sleep(1000);
        assertThat(client.post(vm + "/agent/ping").status()).isEqualTo(200);
    }

    @Test
    void anAgentFrozenRightAfterThePingGivesTheCommandsTimeoutThenCarriesOn() {
        String vm = running();
        awaitAgent(vm);
        int pid = client.post(vm + "/agent/exec", "command", "sleep", "command", "30")
                .data()
                .get("pid")
                .asInt();
        sim.faults().freezeAgentBefore(vmid(vm), "guest-exec-status", Duration.ofSeconds(6));

        TestClient.Resp timedOut = client.get(vm + "/agent/exec-status?pid=" + pid);
        assertThat(timedOut.status()).isEqualTo(500);
        assertThat(timedOut.message())
                .isEqualTo("VM " + vmid(vm) + " qga command 'guest-exec-status' failed - got timeout\n");
        // thawed a second later, it answers again (the ping waits for it), and the fault is used up
        JsonNode status = client.get(vm + "/agent/exec-status?pid=" + pid).data();
        assertThat(status.get("exited").asInt()).isZero();
    }

    @Test
    void stolenVmidMakesTheCloneFailAtOnce() {
        sim.faults().stealNextVmid();
        String id = client.get("/cluster/nextid").data().asText();
        TestClient.Resp r = client.post("/nodes/pve1/qemu/9000/clone", "newid", id);
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.message()).isEqualTo("unable to create VM " + id + ": config file already exists\n");
        assertThat(sim.vm(Integer.parseInt(id)).orElseThrow().name()).startsWith("someone-else-");
        assertThat(client.get("/cluster/nextid").data().asText()).isNotEqualTo(id);
        sim.faults().destroyVm(Integer.parseInt(id));
    }

    @Test
    void stolenVmidOnAnotherNodeFailsTheCloneTask() {
        sim.faults().stealNextVmid("pve2");
        String id = client.get("/cluster/nextid").data().asText();
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id)))
                .endsWith("failed: File exists");
        sim.faults().destroyVm(Integer.parseInt(id));
    }

    @Test
    void foreignVmIsVisibleWithItsMarkers() {
        sim.faults()
                .createForeignVm(ForeignVm.of(690, "pve2")
                        .withTags("bigfleet")
                        .withDescription("machine_id=someone/else")
                        .withPower(PowerState.RUNNING));
        JsonNode c = client.get("/nodes/pve2/qemu/690/config").data();
        assertThat(c.get("description").asText()).isEqualTo("machine_id=someone/else");
        assertThat(c.has("template")).isFalse();
        assertThat(client.get("/nodes/pve2/qemu/690/status/current")
                        .data()
                        .get("status")
                        .asText())
                .isEqualTo("running");
        sim.faults().setPower(690, PowerState.STOPPED);
        sim.faults().destroyVm(690);
    }

    @Test
    void outOfBandDestroyAndMigration() {
        String vm = running();
        int id = vmid(vm);
        sim.faults().migrateVm(id, "pve2");
        assertThat(client.get(vm + "/status/current").message())
                .contains("'nodes/pve1/qemu-server/" + id + ".conf' does not exist");
        assertThat(client.get("/nodes/pve2/qemu/" + id + "/status/current")
                        .data()
                        .get("status")
                        .asText())
                .isEqualTo("running");
        sim.faults().destroyVm(id);
        assertThat(client.get("/nodes/pve2/qemu/" + id + "/config").status()).isEqualTo(500);
        assertThat(client.get("/cluster/resources?type=vm").text()).doesNotContain("\"vmid\":" + id + ",");
    }
}
