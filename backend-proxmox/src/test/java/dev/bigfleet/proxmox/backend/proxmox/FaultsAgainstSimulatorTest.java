package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.ForeignVm;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.pvesim.TaskKind;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the real backend copes with a misbehaving cluster, proven against the simulator's faults. */
class FaultsAgainstSimulatorTest {
    private TestingProxmoxCluster cluster;
    private ProxmoxBackend backend;
    private final CountingRecorder calls = new CountingRecorder();

    private ProxmoxBackend start(Map<String, String> overrides) throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        backend = SimulatorBackends.backend(cluster, "proxmox", overrides, calls);
        return backend;
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

    private List<VmView> clones() {
        return cluster.simulator().vms().stream().filter(v -> !v.template()).toList();
    }

    private static BackendException failure(ThrowingCall call) {
        try {
            call.run();
        } catch (BackendException e) {
            Leaks.assertNoSecret(e.getMessage());
            return e;
        } catch (Exception e) {
            throw new AssertionError("expected a BackendException, got " + e, e);
        }
        throw new AssertionError("expected a BackendException, but the call succeeded");
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void aFailedCloneTaskFailsTheCreateAndLeavesNoVm() throws Exception {
        start(Map.of());
        cluster.simulator().faults().failTasks(TaskKind.CLONE, 1);
        String id = "proxmox/OnDemand/pve.small/pve1/000";

        BackendException e = failure(() -> backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id)));

        assertThat(e.getMessage())
                .startsWith("create: full clone of template 9000 on pve1: task failed:")
                .contains("clone failed: simulated failure");
        assertThat(clones()).isEmpty();
    }

    @Test
    void anAgentThatNeverAnswersFailsTheCreateAfterTheAgentTimeout() throws Exception {
        start(Map.of("agent-timeout", "2s"));
        cluster.simulator().faults().agentNeverUpForNewVms(true);
        String id = "proxmox/OnDemand/pve.small/pve1/001";

        long t0 = System.nanoTime();
        BackendException e = failure(() -> backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id)));

        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(20));
        assertThat(e.getMessage())
                .contains("wait for guest agent on VM pve1/")
                .contains("--agent-timeout 2s")
                .contains("QEMU guest agent is not running");
    }

    @Test
    void aHookThatExitsNonZeroFailsConfigureWithItsCodeAndStderrAndTheBlobIsStillDeleted() throws Exception {
        start(Map.of());
        String id = "proxmox/OnDemand/pve.small/pve1/002";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        String noisy = "x".repeat(5000) + " join failed: token " + "abcdef.0123456789abcdef" + " rejected";
        cluster.simulator().guest((int) vm.vmid()).kubeadmJoinFails(1, noisy);

        BackendException e = failure(() -> backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(id, vm.node(), vm.vmid()), "c", Leaks.BLOB), forMachine(id)));

        assertThat(e.getMessage())
                .startsWith("configure: bootstrap hook \"/bin/sh /run/bigfleet-bootstrap\" on VM pve1/" + vm.vmid()
                        + " exited with code 1: …")
                .endsWith("join failed: token " + Redactor.MASK + " rejected");
        assertThat(e.getMessage().getBytes(StandardCharsets.UTF_8).length).isLessThan(2300);
        VmView after = cluster.simulator().vm((int) vm.vmid()).orElseThrow();
        assertThat(cluster.simulator().guest((int) vm.vmid()).read("/run/bigfleet-bootstrap"))
                .isEmpty();
        assertThat(after.execs().get(after.execs().size() - 1).argv()).startsWith("rm", "-f");
    }

    @Test
    void transientServerErrorsAreRetriedThenSucceed() throws Exception {
        start(Map.of());
        cluster.simulator().faults().failRequests("GET", "/cluster/resources", 2, 500, "got timeout");
        cluster.simulator()
                .faults()
                .failRequests(
                        "POST",
                        "/nodes/pve1/qemu/9000/clone",
                        1,
                        500,
                        "can't lock file" + " '/var/lock/qemu-server/lock-9000.conf' - got timeout");
        cluster.simulator().faults().failRequests("PUT", "/nodes/pve1/qemu/\\d+/config", 1, 595, "");
        cluster.simulator().faults().failRequests("GET", "/nodes/pve1/tasks/.*/status", 2, 503, "busy");
        String id = "proxmox/OnDemand/pve.small/pve1/003";

        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));

        assertThat(clones()).singleElement().satisfies(v -> assertThat(v.vmid()).isEqualTo((int) vm.vmid()));
        assertThat(calls.failures()).isGreaterThanOrEqualTo(6);
    }

    @Test
    void aCloneWhoseAnswerIsLostIsFoundInsteadOfClonedTwice() throws Exception {
        start(Map.of());
        cluster.simulator().faults().dropResponses("POST", "/nodes/pve1/qemu/9000/clone", 1);
        String id = "proxmox/OnDemand/pve.small/pve1/004";

        CreatedVm first = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        CreatedVm retried = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));

        assertThat(retried).isEqualTo(first);
        assertThat(clones()).hasSize(1);
    }

    @Test
    void aVmidTakenByAnotherClientIsRetriedWithAnotherOne() throws Exception {
        start(Map.of());
        cluster.simulator().faults().stealNextVmid();
        String id = "proxmox/OnDemand/pve.small/pve1/005";

        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));

        assertThat(clones()).hasSize(2);
        VmView ours = cluster.simulator().vm((int) vm.vmid()).orElseThrow();
        assertThat(ours.description()).contains("bigfleet-machine-id=" + id);
    }

    @Test
    void aVmidRangeIsHonoured() throws Exception {
        start(Map.of("vmid-range", "5000-5001"));
        String a = "proxmox/OnDemand/pve.small/pve1/006";
        String b = "proxmox/OnDemand/pve.small/pve2/006";
        String c = "proxmox/OnDemand/pve.small/pve1/007";

        assertThat(backend.cloneAndStart(SimulatorBackends.clone(a, "pve1"), forMachine(a))
                        .vmid())
                .isEqualTo(5000);
        assertThat(backend.cloneAndStart(SimulatorBackends.clone(b, "pve2"), forMachine(b))
                        .vmid())
                .isEqualTo(5001);
        BackendException e = failure(() -> backend.cloneAndStart(SimulatorBackends.clone(c, "pve1"), forMachine(c)));
        assertThat(e.getMessage()).contains("no free VMID left in --vmid-range 5000-5001");
    }

    @Test
    void aNodeWithoutTheMemoryOrOfflineFailsTheCreateFast() throws Exception {
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .customize(b -> b.node(NodeSpec.of("pve3").withCapacity(4, 6L << 30)))
                .start();
        backend = new ProxmoxApiBackendFactory()
                .create(new BackendContext(
                        "proxmox",
                        List.of("pve1", "pve2", "pve3"),
                        SimulatorBackends.CATALOG,
                        List.of(
                                new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()),
                                new Offering("pve.small", "pve3", CapacityType.ON_DEMAND, 4, Map.of(), Map.of())),
                        BackendOptions.of(SimulatorBackends.options(cluster)),
                        calls));
        String a = "proxmox/OnDemand/pve.small/pve3/000";
        String b = "proxmox/OnDemand/pve.small/pve3/001";
        backend.cloneAndStart(SimulatorBackends.clone(a, "pve3"), forMachine(a));

        BackendException full = failure(() -> backend.cloneAndStart(SimulatorBackends.clone(b, "pve3"), forMachine(b)));
        assertThat(full.getMessage())
                .contains("node pve3 has no room for pve.small (4096 MiB)")
                .contains("--memory-overcommit 1.0");

        cluster.simulator().faults().nodeOnline("pve2", false);
        String c = "proxmox/OnDemand/pve.small/pve2/000";
        BackendException offline =
                failure(() -> backend.cloneAndStart(SimulatorBackends.clone(c, "pve2"), forMachine(c)));
        assertThat(offline.getMessage()).isEqualTo("create: node pve2 is offline");
    }

    @Test
    void aFailingDrainFailsWithItsExitCode() throws Exception {
        start(Map.of());
        String id = "proxmox/OnDemand/pve.small/pve1/008";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator()
                .guest((int) vm.vmid())
                .kubectlDrainFails(1, "error: cannot evict pod as it would violate the pod's disruption budget");

        BackendException e = failure(() ->
                backend.drain(new DrainSpec(new VmTarget(id, vm.node(), vm.vmid()), "c", 5), forMachine(id)));

        assertThat(e.getMessage())
                .isEqualTo("drain: kubectl drain on VM pve1/" + vm.vmid() + " exited with code 1:"
                        + " error: cannot evict pod as it would violate the pod's disruption budget");
    }

    @Test
    void aVmDestroyedOutOfBandFailsConfigureAndDrainAndDeleteSucceeds() throws Exception {
        start(Map.of());
        String id = "proxmox/OnDemand/pve.small/pve1/009";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator().faults().destroyVm((int) vm.vmid());
        VmTarget target = new VmTarget(id, vm.node(), vm.vmid());

        BackendException e =
                failure(() -> backend.applyBootstrap(new BootstrapSpec(target, "c", Leaks.BLOB), forMachine(id)));
        assertThat(e.getMessage())
                .isEqualTo("configure: VM pve1/" + vm.vmid() + " of machine " + id
                        + " no longer exists (destroyed outside the provider?)");
        failure(() -> backend.drain(new DrainSpec(target, "c", 5), forMachine(id)));
        backend.destroy(target, forMachine(id));
        assertThat(backend.describeManaged()).isEmpty();
    }

    /**
     * The machine's VM was destroyed out of band and its VMID went to someone else's VM: that VM is
     * never touched. It proves the machine's VM gone, so the Delete succeeds; Ensure running,
     * Configure and the binding's record fail saying the VM no longer exists, and the binding's
     * clear has nothing left to clear.
     */
    @Test
    void aVmidReusedByAForeignVmIsNeverTouchedAndProvesTheMachinesVmGone() throws Exception {
        start(Map.of());
        String id = "proxmox/OnDemand/pve.small/pve1/010";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator().faults().destroyVm((int) vm.vmid());
        cluster.simulator()
                .faults()
                .createForeignVm(ForeignVm.of((int) vm.vmid(), "pve1")
                        .withPower(PowerState.RUNNING)
                        .withDescription("database server, do not touch"));
        cluster.simulator().clearRequests();
        VmTarget target = new VmTarget(id, vm.node(), vm.vmid());
        String gone = "VM pve1/" + vm.vmid() + " of machine " + id + " no longer exists (its VMID now belongs to"
                + " another VM, pve1/" + vm.vmid() + " (no BigFleet description), which was left untouched)";
        BindingRecorder bindings = backend.bindings().orElseThrow();

        assertThat(failure(() -> backend.ensureRunning(target, forMachine(id))).getMessage())
                .isEqualTo("ensure running: " + gone);
        assertThat(failure(() -> backend.applyBootstrap(new BootstrapSpec(target, "c", Leaks.BLOB), forMachine(id)))
                        .getMessage())
                .isEqualTo("configure: " + gone);
        assertThat(failure(() -> backend.drain(new DrainSpec(target, "c", 5), forMachine(id)))
                        .getMessage())
                .isEqualTo("drain: " + gone);
        BackendException record = failure(
                () -> bindings.recordBinding(target, VmBinding.of("c", Instant.now(), Map.of()), forMachine(id)));
        assertThat(record.getMessage())
                .isEqualTo("configure: record the binding of VM pve1/" + vm.vmid() + " to cluster c: " + gone);
        assertThat(record.isTransient()).as("no retry brings the VM back").isFalse();
        bindings.clearBinding(target, forMachine(id));
        backend.destroy(target, forMachine(id));

        VmView foreign = cluster.simulator().vm((int) vm.vmid()).orElseThrow();
        assertThat(foreign.running()).isTrue();
        assertThat(foreign.description()).isEqualTo("database server, do not touch");
        assertThat(foreign.execs()).isEmpty();
        assertThat(cluster.simulator().requests())
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
    }

    /** The same on another node, held by another machine's VM: both are named, and nothing is touched. */
    @Test
    void aVmidReusedByAnotherMachinesVmOnAnotherNodeNamesThatMachine() throws Exception {
        start(Map.of());
        String id = "proxmox/OnDemand/pve.small/pve1/011";
        String other = "proxmox/OnDemand/pve.small/pve2/011";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator().faults().destroyVm((int) vm.vmid());
        CreatedVm theirs = backend.cloneAndStart(SimulatorBackends.clone(other, "pve2"), forMachine(other));
        assertThat(theirs.vmid()).isEqualTo(vm.vmid());
        cluster.simulator().clearRequests();
        VmTarget target = new VmTarget(id, vm.node(), vm.vmid());

        BackendException e = failure(() -> backend.drain(new DrainSpec(target, "c", 5), forMachine(id)));
        backend.bindings().orElseThrow().clearBinding(target, forMachine(id));
        backend.destroy(target, forMachine(id));

        assertThat(e.getMessage())
                .isEqualTo("drain: VM pve1/" + vm.vmid() + " of machine " + id + " no longer exists (its VMID now"
                        + " belongs to another VM, pve2/" + vm.vmid() + " (provider \"proxmox\", machine \"" + other
                        + "\"), which was left untouched)");
        assertThat(cluster.simulator().vm((int) theirs.vmid()))
                .hasValueSatisfying(v -> assertThat(v.running()).isTrue())
                .hasValueSatisfying(v -> assertThat(v.execs()).isEmpty());
        assertThat(cluster.simulator().requests())
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
        assertThat(backend.describeManaged())
                .singleElement()
                .satisfies(m -> assertThat(m.machineId()).hasValue(other));
    }

    /**
     * A VM at the machine's VMID that carries the machine's tag but no description naming it may be
     * the machine's VM with its description edited: it is not taken for gone, and not touched.
     */
    @Test
    void aVmWithTheMachinesTagButNoDescriptionIsNeitherTakenForGoneNorTouched() throws Exception {
        start(Map.of());
        String id = "proxmox/OnDemand/pve.small/pve1/012";
        CreatedVm vm = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator().faults().destroyVm((int) vm.vmid());
        String machineTag = new Markers("proxmox").machineTag(id);
        cluster.simulator()
                .faults()
                .createForeignVm(ForeignVm.of((int) vm.vmid(), "pve1")
                        .withPower(PowerState.RUNNING)
                        .withTags("bigfleet;" + machineTag)
                        .withDescription("notes"));
        cluster.simulator().clearRequests();
        VmTarget target = new VmTarget(id, vm.node(), vm.vmid());

        for (ThrowingCall call : List.<ThrowingCall>of(
                () -> backend.applyBootstrap(new BootstrapSpec(target, "c", Leaks.BLOB), forMachine(id)),
                () -> backend.bindings().orElseThrow().clearBinding(target, forMachine(id)),
                () -> backend.destroy(target, forMachine(id)))) {
            assertThat(failure(call).getMessage())
                    .contains("VM pve1/" + vm.vmid() + " carries machine " + id + "'s tag " + machineTag
                            + " but no BigFleet description naming it")
                    .endsWith("it was left untouched");
        }

        assertThat(cluster.simulator().vm((int) vm.vmid()))
                .hasValueSatisfying(v -> assertThat(v.running()).isTrue());
        assertThat(cluster.simulator().requests())
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
    }

    @Test
    void anUnreachableClusterFailsFastOnceTheCircuitOpens() throws Exception {
        start(Map.of());
        cluster.simulator().close();
        for (int i = 0; i < 3; i++) {
            failure(() -> backend.describeManaged());
        }
        long t0 = System.nanoTime();
        BackendException e = failure(() -> backend.describeManaged());
        assertThat(e.getMessage()).contains("unreachable");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(1));
    }
}
