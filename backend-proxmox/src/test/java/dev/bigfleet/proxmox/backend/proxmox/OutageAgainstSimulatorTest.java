package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.pvesim.TaskView;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CallOutcome;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.BackgroundCall;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What an outage of the Proxmox API does to the real backend, against the simulator refusing every
 * connection: a failure says whether a retry of the same call may succeed, a task or guest command
 * that runs through the outage is waited out, and {@code apiStatus()} tells since when the API is
 * unreachable and why.
 */
@Tag("recovery")
class OutageAgainstSimulatorTest {
    private static final String HOOK_COMMAND = "/bin/sh /run/bigfleet-bootstrap";
    private static final String HOOK = "^" + HOOK_COMMAND + "$";

    private TestingProxmoxCluster cluster;
    private ProxmoxBackend backend;
    private final OutcomeLog calls = new OutcomeLog();

    private void start(Duration latency) throws Exception {
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .customize(b -> b.latency(latency))
                .start();
        backend = SimulatorBackends.backend(cluster, "proxmox", calls);
    }

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private ApiStatus status() {
        return backend.apiStatus().orElseThrow();
    }

    private static BackendException failure(BackgroundCall call) {
        assertThat(call.failure()).isInstanceOf(BackendException.class);
        Leaks.assertNoSecret(call.failure().getMessage());
        return (BackendException) call.failure();
    }

    private List<VmView> clones() {
        return cluster.simulator().vms().stream().filter(v -> !v.template()).toList();
    }

    private static long runs(VmView vm, String regex) {
        return vm.execs().stream().filter(e -> e.commandLine().matches(regex)).count();
    }

    @Test
    void aCallThatCannotReachTheApiFailsTransientlyAndTheStatusSaysSinceWhenAndWhy() throws Exception {
        start(Duration.ZERO);
        assertThat(status().reachable()).isTrue();
        Instant before = Instant.now();

        cluster.simulator().refuseConnections();
        BackgroundCall describe = BackgroundCall.start(() -> backend.describeManaged());
        assertThat(describe.await(Duration.ofSeconds(60))).isTrue();

        BackendException e = failure(describe);
        assertThat(e.isTransient()).isTrue();
        assertThat(e.getMessage()).startsWith("describe: ").contains("cannot connect to 127.0.0.1:");
        ApiStatus down = status();
        assertThat(down.reachable()).isFalse();
        assertThat(down.since()).isAfterOrEqualTo(before.minusMillis(1));
        assertThat(down.lastError())
                .hasValueSatisfying(
                        m -> assertThat(m).contains("cannot connect").doesNotContain("\n"));
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            try {
                backend.describeManaged();
            } catch (BackendException again) {
                assertThat(again.isTransient()).isTrue();
            }
            return status().breakerOpen();
        });

        cluster.simulator().acceptConnections();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    try {
                        backend.describeManaged();
                        return true;
                    } catch (BackendException notYet) {
                        return false;
                    }
                });
        ApiStatus up = status();
        assertThat(up.reachable()).isTrue();
        assertThat(up.since()).isAfter(down.since());
        assertThat(up.breakerOpen()).isFalse();
    }

    @Test
    void aCreateWhoseCloneRunsThroughAnOutageWaitsItOutAndClonesOnce() throws Exception {
        start(Duration.ofMillis(500));
        String id = "proxmox/OnDemand/pve.small/pve1/000";
        TestOperationContext context = TestOperationContext.withDeadline(id, Duration.ofMinutes(2));
        BackgroundCall create =
                BackgroundCall.start(() -> backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), context));
        await().atMost(Duration.ofSeconds(30)).until(() -> !clones().isEmpty());

        cluster.simulator().refuseConnections();
        Thread.sleep(4000);
        assertThat(create.finished()).as("the create waits for the API").isFalse();
        cluster.simulator().acceptConnections();

        assertThat(create.await(Duration.ofSeconds(90))).isTrue();
        assertThat(create.failure()).isNull();
        assertThat(clones())
                .singleElement()
                .satisfies(vm -> assertThat(vm.running()).isTrue());
    }

    @Test
    void aHookRunningThroughAnOutageIsWaitedForAndRunsOnce() throws Exception {
        start(Duration.ZERO);
        String id = "proxmox/OnDemand/pve.small/pve1/001";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        // a hook that takes 3 s (the blob is the script the default hook runs)
        byte[] slow = ("sleep 3\n" + Leaks.BLOB_TEXT).getBytes(StandardCharsets.UTF_8);
        BackgroundCall configure = BackgroundCall.start(() -> backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(id, vm.node(), vm.vmid()), "c", slow),
                TestOperationContext.withDeadline(id, Duration.ofMinutes(2))));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> runs(cluster.simulator().vm((int) vm.vmid()).orElseThrow(), HOOK) == 1);

        cluster.simulator().refuseConnections();
        Thread.sleep(5000);
        cluster.simulator().acceptConnections();

        assertThat(configure.await(Duration.ofSeconds(90))).isTrue();
        assertThat(configure.failure()).isNull();
        VmView after = cluster.simulator().vm((int) vm.vmid()).orElseThrow();
        assertThat(runs(after, HOOK)).isEqualTo(1);
        assertThat(cluster.simulator().guest((int) vm.vmid()).read("/run/bigfleet-bootstrap"))
                .isEmpty();
    }

    @Test
    void aConfigureThatCannotReachTheApiIsTransientAndOneAfterTheHookWasSentSaysTheBootstrapStarted() throws Exception {
        start(Duration.ZERO);
        String id = "proxmox/OnDemand/pve.small/pve1/002";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        VmTarget target = new VmTarget(id, vm.node(), vm.vmid());

        cluster.simulator().refuseConnections();
        BackgroundCall unreachable = BackgroundCall.start(
                () -> backend.applyBootstrap(new BootstrapSpec(target, "c", Leaks.BLOB), forMachine(id)));
        assertThat(unreachable.await(Duration.ofSeconds(90))).isTrue();
        assertThat(failure(unreachable).isTransient()).isTrue();
        assertThat(failure(unreachable).bootstrapStarted()).isFalse();
        cluster.simulator().acceptConnections();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(this::reachableNow);

        cluster.simulator().guest((int) vm.vmid()).kubeadmJoinFails(3, "join failed");
        BackendException exited = failure(
                ended(() -> backend.applyBootstrap(new BootstrapSpec(target, "c", Leaks.BLOB), forMachine(id))));
        assertThat(exited.isTransient()).isFalse();
        assertThat(exited.bootstrapStarted()).isTrue();
        assertThat(exited.getMessage()).contains("exited with code 3");

        byte[] endless = ("sleep 600\n" + Leaks.BLOB_TEXT).getBytes(StandardCharsets.UTF_8);
        BackendException hung = failure(ended(() -> backend.applyBootstrap(
                new BootstrapSpec(target, "c", endless),
                TestOperationContext.withDeadline(id, Duration.ofSeconds(4)))));
        assertThat(hung.isTransient()).isFalse();
        assertThat(hung.bootstrapStarted()).isTrue();

        cluster.simulator().faults().clear();
        cluster.simulator().faults().dropExecResponses(HOOK_COMMAND, 1);
        BackendException lost = failure(
                ended(() -> backend.applyBootstrap(new BootstrapSpec(target, "c", Leaks.BLOB), forMachine(id))));
        assertThat(lost.isTransient())
                .as("a hook whose exec's answer was lost is never sent again")
                .isFalse();
        assertThat(lost.bootstrapStarted()).as("the hook may have run").isTrue();
    }

    /** Runs the call on a thread of its own and waits for it to end. */
    private static BackgroundCall ended(BackgroundCall.Body body) throws InterruptedException {
        BackgroundCall call = BackgroundCall.start(body);
        assertThat(call.await(Duration.ofSeconds(90))).as("the call ended").isTrue();
        return call;
    }

    private boolean reachableNow() {
        try {
            backend.describeManaged();
            return true;
        } catch (BackendException e) {
            return false;
        }
    }

    @Test
    void aDrainWhoseCommandAnswerIsLostIsDefiniteAndRunsOnce() throws Exception {
        start(Duration.ZERO);
        String id = "proxmox/OnDemand/pve.small/pve1/003";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator().faults().dropResponses("POST", "/nodes/pve1/qemu/\\d+/agent/exec", 1);

        BackendException e = failure(ended(() ->
                backend.drain(new DrainSpec(new VmTarget(id, vm.node(), vm.vmid()), "c", 5), forMachine(id))));

        assertThat(e.isTransient()).isFalse();
        assertThat(runs(cluster.simulator().vm((int) vm.vmid()).orElseThrow(), ".*kubectl drain.*"))
                .isEqualTo(1);
    }

    @Test
    void aHealthyCreateAndConfigureWaitButNeverErr() throws Exception {
        // the guest's agent starts 5 s after the VM (5 units): the first pings get no answer in 3 s
        start(Duration.ofSeconds(1));
        String id = "proxmox/OnDemand/pve.small/pve1/004";

        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        // a hook that takes a second, so that its first exit status polls find it running
        byte[] blob = ("sleep 1\n" + Leaks.BLOB_TEXT).getBytes(StandardCharsets.UTF_8);
        backend.applyBootstrap(new BootstrapSpec(new VmTarget(id, vm.node(), vm.vmid()), "c", blob), forMachine(id));

        assertThat(calls.with(CallOutcome.ERROR)).isEmpty();
        assertThat(calls.with(CallOutcome.WAITING))
                .extracting(OutcomeLog.Call::op)
                .contains("GET task status", "POST agent/ping", "GET agent/exec-status");
        assertThat(calls.with(CallOutcome.SUCCESS))
                .extracting(OutcomeLog.Call::op)
                .contains("GET task status", "POST agent/ping", "GET agent/exec-status", "POST clone");
    }

    @Test
    void aDeleteWhoseTaskRunsThroughAnOutageWaitsItOut() throws Exception {
        start(Duration.ofMillis(500));
        String id = "proxmox/OnDemand/pve.small/pve1/005";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        BackgroundCall delete = BackgroundCall.start(() -> backend.destroy(
                new VmTarget(id, vm.node(), vm.vmid()), TestOperationContext.withDeadline(id, Duration.ofMinutes(2))));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.simulator().tasks().stream()
                        .anyMatch(t -> t.type().equals("qmstop")));

        cluster.simulator().refuseConnections();
        Thread.sleep(3000);
        cluster.simulator().acceptConnections();

        assertThat(delete.await(Duration.ofSeconds(90))).isTrue();
        assertThat(delete.failure()).isNull();
        assertThat(clones()).isEmpty();
        assertThat(backend.describeManaged()).isEmpty();
    }

    /**
     * The outage begins while the destroy request's answer is on its way: the VM is destroyed, the
     * answer is lost, and the Delete fails transiently (the engine tries it again). Meanwhile
     * another machine's Create gets the freed VMID on another node. The retry finds that VMID held
     * by the other machine's VM, which proves the Delete's VM gone: it succeeds, touching nothing.
     */
    @Test
    void aDeleteWhoseAnswerAnOutageHidSucceedsOnItsRetryAfterAnotherMachineTookTheVmid() throws Exception {
        start(Duration.ZERO);
        String ours = "proxmox/OnDemand/pve.small/pve1/006";
        String theirs = "proxmox/OnDemand/pve.small/pve2/006";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(ours, "pve1"), forMachine(ours));
        VmTarget target = new VmTarget(ours, vm.node(), vm.vmid());
        cluster.simulator()
                .faults()
                .delayResponses("DELETE", "/nodes/pve1/qemu/" + vm.vmid(), 1, Duration.ofSeconds(60));
        BackgroundCall delete = BackgroundCall.start(
                () -> backend.destroy(target, TestOperationContext.withDeadline(ours, Duration.ofMinutes(2))));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.simulator().vm((int) vm.vmid()).isEmpty());

        cluster.simulator().refuseConnections(); // the answer still held back is cut
        assertThat(delete.await(Duration.ofSeconds(90))).isTrue();
        assertThat(failure(delete).isTransient())
                .as("the engine tries the Delete again")
                .isTrue();
        cluster.simulator().acceptConnections();
        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(this::reachableNow);
        CreatedVm other = backend.cloneAndStart(SimulatorBackends.clone(theirs, "pve2"), forMachine(theirs));
        assertThat(other.vmid()).as("the freed VMID went to the other machine").isEqualTo(vm.vmid());
        cluster.simulator().clearRequests();

        backend.destroy(target, forMachine(ours));

        assertThat(cluster.simulator().vm((int) other.vmid()))
                .hasValueSatisfying(v -> assertThat(v.running()).isTrue())
                .hasValueSatisfying(v -> assertThat(v.node()).isEqualTo("pve2"))
                .hasValueSatisfying(v -> assertThat(v.description()).contains(theirs));
        assertThat(cluster.simulator().requests())
                .as("the other machine's VM was only read")
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
    }

    /**
     * As above, with the other machine's VM on the same node and running by the time the outage
     * ends: the destroy request whose answer was lost is not sent again blindly (it would reach the
     * other machine's VM, be refused as running, and have that VM stopped and destroyed). Whose VM
     * holds the VMID is checked first.
     */
    @Test
    void aDestroyRequestWhoseAnswerWasLostIsNotSentAgainToTheVmThatTookItsVmid() throws Exception {
        start(Duration.ZERO);
        String ours = "proxmox/OnDemand/pve.small/pve1/007";
        String theirs = "proxmox/OnDemand/pve.small/pve1/008";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(ours, "pve1"), forMachine(ours));
        VmTarget target = new VmTarget(ours, vm.node(), vm.vmid());
        cluster.simulator()
                .faults()
                .delayResponses("DELETE", "/nodes/pve1/qemu/" + vm.vmid(), 1, Duration.ofSeconds(60));
        BackgroundCall delete = BackgroundCall.start(
                () -> backend.destroy(target, TestOperationContext.withDeadline(ours, Duration.ofMinutes(2))));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> cluster.simulator().vm((int) vm.vmid()).isEmpty());
        CreatedVm other = backend.cloneAndStart(SimulatorBackends.clone(theirs, "pve1"), forMachine(theirs));
        assertThat(other.vmid()).as("the freed VMID went to the other machine").isEqualTo(vm.vmid());
        int tasksBefore = cluster.simulator().tasks().size();

        cluster.simulator().refuseConnections(); // the answer still held back is cut
        cluster.simulator().acceptConnections(); // and the API answers again at once
        assertThat(delete.await(Duration.ofSeconds(90))).isTrue();
        if (delete.failure() != null) {
            assertThat(failure(delete).isTransient())
                    .as("the engine tries the Delete again")
                    .isTrue();
            backend.destroy(target, forMachine(ours));
        }

        assertThat(cluster.simulator().vm((int) other.vmid()))
                .as("the other machine's VM")
                .hasValueSatisfying(v -> assertThat(v.running()).isTrue())
                .hasValueSatisfying(v -> assertThat(v.description()).contains(theirs));
        List<TaskView> tasks = cluster.simulator().tasks();
        assertThat(tasks.subList(tasksBefore, tasks.size()))
                .as("no stop or destroy since the other machine's VM took the VMID")
                .noneMatch(t -> t.type().equals("qmstop") || t.type().equals("qmdestroy"));
    }

    @Test
    void theStatusOfAnUnreachableApiNamesNoSecret() throws Exception {
        start(Duration.ZERO);
        cluster.simulator().refuseConnections();
        BackgroundCall describe = BackgroundCall.start(() -> backend.describeManaged());
        assertThat(describe.await(Duration.ofSeconds(60))).isTrue();

        assertThat(status().lastError()).hasValueSatisfying(Leaks::assertNoSecret);
        Leaks.assertNoSecret(status().toString());
    }
}
