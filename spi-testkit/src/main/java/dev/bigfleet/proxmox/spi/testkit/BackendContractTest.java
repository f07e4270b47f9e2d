package dev.bigfleet.proxmox.spi.testkit;

import static dev.bigfleet.proxmox.spi.testkit.BackendFailures.expectFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ReadinessGate;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link ProxmoxBackend}, as tests any backend runs in its own build: extend this
 * class and return a {@link BackendFixture} from {@link #newFixture()}. Each test gets a fresh
 * fixture and a backend built from it, and checks something an operator would notice: a retried
 * Create that cloned twice, a Delete that failed on a VM already gone, a VM of another machine that
 * was touched, a hook failure without its exit code, a {@code last_error} on several lines or with
 * the join secret in it, a call that outlived its deadline, metric series named after machines.
 *
 * <p>A backend that offers no {@link ProxmoxBackend#readiness() readiness} check, or whose fixture
 * cannot slow a Create down, skips the tests of those (JUnit reports them as skipped, not passed).
 */
public abstract class BackendContractTest extends BackendContractSupport {
    @Test
    void aSecondCreateForTheSameMachineReturnsTheSameVmAndClonesOnce() throws Exception {
        CreatedVm first = create("contract-retried");
        CreatedVm again = create("contract-retried");
        CreatedVm other = create("contract-other");

        assertThat(again).as("the VM a retried Create returns").isEqualTo(first);
        assertThat(other.hostRef()).as("another machine's VM").isNotEqualTo(first.hostRef());
        assertThat(managedBy("contract-retried"))
                .as("VMs carrying the retried machine's id")
                .singleElement()
                .satisfies(vm -> assertThat(vm.hostRef()).isEqualTo(first.hostRef()))
                .satisfies(vm -> assertThat(vm.running()).as("reported running").isTrue());
        assertThat(managedBy("contract-other")).hasSize(1);
        assertThat(fixture().isRunning(first)).as("the VM runs").isTrue();
    }

    @Test
    void aStoppedVmIsAdoptedByTheNextCreateAndRunsAgain() throws Exception {
        CreatedVm first = create("contract-adopted");
        fixture().stopVm(first);
        assertThat(fixture().isRunning(first)).as("the fixture stopped the VM").isFalse();

        CreatedVm again = create("contract-adopted");

        assertThat(again).as("the VM the Create adopted").isEqualTo(first);
        assertThat(fixture().isRunning(first)).as("the adopted VM runs again").isTrue();
        assertThat(managedBy("contract-adopted"))
                .singleElement()
                .satisfies(vm -> assertThat(vm.running()).as("reported running").isTrue());
    }

    @Test
    void destroyingAVmThatIsAlreadyGoneSucceeds() throws Exception {
        String machine = "contract-destroyed";
        CreatedVm vm = create(machine);

        backend().destroy(target(machine, vm), context(machine));
        assertThat(fixture().exists(vm)).as("the VM is gone from the substrate").isFalse();
        assertThat(managedBy(machine)).as("VMs still reported for the machine").isEmpty();
        backend().destroy(target(machine, vm), context(machine));
        backend().destroy(new VmTarget("contract-never", vm.node(), fixture().absentVmid()), context("contract-never"));

        CreatedVm fresh = create(machine);
        assertThat(fixture().isRunning(fresh))
                .as("a Create after the Delete makes a running VM again")
                .isTrue();
        assertThat(managedBy(machine))
                .singleElement()
                .satisfies(m -> assertThat(m.hostRef()).isEqualTo(fresh.hostRef()));
    }

    @Test
    void ensureRunningStartsAStoppedVmAndKeepsARunningOneRunning() throws Exception {
        String machine = "contract-ensured";
        CreatedVm vm = create(machine);

        backend().ensureRunning(target(machine, vm), context(machine));
        assertThat(fixture().isRunning(vm))
                .as("a running VM after ensureRunning")
                .isTrue();
        fixture().stopVm(vm);
        assertThat(fixture().isRunning(vm)).as("the fixture stopped the VM").isFalse();
        backend().ensureRunning(target(machine, vm), context(machine));

        assertThat(fixture().isRunning(vm))
                .as("a stopped VM after ensureRunning")
                .isTrue();
        assertThat(managedBy(machine))
                .singleElement()
                .satisfies(m -> assertThat(m.hostRef()).isEqualTo(vm.hostRef()));
    }

    @Test
    void ensureRunningOfAVmThatDoesNotExistFails() throws Exception {
        String machine = "contract-missing";
        String zone = fixture().cloneSpec(machine).zone();

        expectFailure(() ->
                backend().ensureRunning(new VmTarget(machine, zone, fixture().absentVmid()), context(machine)));
        assertThat(managedBy(machine)).as("VMs made for the missing one").isEmpty();
    }

    @Test
    void configureBringsAStoppedVmUpAndASucceedingHookConfiguresIt() throws Exception {
        String machine = "contract-configured";
        CreatedVm vm = create(machine);
        fixture().stopVm(vm);

        // what Configure does: bring the VM up, then run the bootstrap hook
        TestOperationContext configure = context(machine);
        backend().ensureRunning(target(machine, vm), configure);
        backend().applyBootstrap(new BootstrapSpec(target(machine, vm), CLUSTER, TestBlob.blob()), configure);

        assertThat(fixture().isRunning(vm)).as("the configured VM runs").isTrue();
    }

    @Test
    void aHookThatExitsNonZeroFailsNamingItsExitCodeWithoutTheBlob() throws Exception {
        String machine = "contract-hook-fails";
        CreatedVm vm = create(machine);
        GuestFailure hook = fixture().failBootstrap(vm);

        BackendException e = expectFailure(() -> backend()
                .applyBootstrap(
                        new BootstrapSpec(target(machine, vm), hook.clusterId(), TestBlob.blob()), context(machine)));

        assertThat(e.getMessage())
                .as("last_error of the failed Configure")
                .containsPattern("(?i)exit[^0-9]{0,24}" + hook.exitCode() + "(?![0-9])");
        assertThat(e.isTransient())
                .as("a hook that exited non-zero is a definite failure")
                .isFalse();
    }

    @Test
    void drainSucceedsAndDrainingADrainedNodeSucceedsToo() throws Exception {
        String machine = "contract-drained";
        CreatedVm vm = create(machine);
        backend().applyBootstrap(new BootstrapSpec(target(machine, vm), CLUSTER, TestBlob.blob()), context(machine));

        backend().drain(new DrainSpec(target(machine, vm), CLUSTER, 30), context(machine));
        backend().drain(new DrainSpec(target(machine, vm), CLUSTER, 30), context(machine));

        assertThat(fixture().isRunning(vm))
                .as("a drained VM keeps running until its Delete")
                .isTrue();
    }

    @Test
    void aDrainThatFailsFailsTheCall() throws Exception {
        String machine = "contract-drain-fails";
        CreatedVm vm = create(machine);
        GuestFailure drain = fixture().failDrain(vm);
        backend()
                .applyBootstrap(
                        new BootstrapSpec(target(machine, vm), drain.clusterId(), TestBlob.blob()), context(machine));

        expectFailure(() ->
                backend().drain(new DrainSpec(target(machine, vm), drain.clusterId(), 5), context(machine)));
    }

    @Test
    void whenReadinessIsOfferedABootstrappedNodeBecomesReady() throws Exception {
        Optional<ReadinessGate> gate = backend().readiness();
        assumeTrue(gate.isPresent(), "the backend offers no readiness check");
        String machine = "contract-ready";
        CreatedVm vm = create(machine);
        backend().applyBootstrap(new BootstrapSpec(target(machine, vm), CLUSTER, TestBlob.blob()), context(machine));

        gate.get().awaitNodeReady(target(machine, vm), CLUSTER, context(machine));
    }

    @Test
    void whenBindingsAreKeptDescribeReportsABindingUntilItIsCleared() throws Exception {
        Optional<BindingRecorder> bindings = backend().bindings();
        assumeTrue(bindings.isPresent(), "the backend keeps no bindings");
        String machine = "contract-bound";
        CreatedVm vm = create(machine);
        VmBinding binding = VmBinding.of(
                CLUSTER, Instant.parse("2026-12-01T10:00:00Z"), Map.of("pool", "gpu-a", "note", "two\nlines"));
        assertThat(managedBy(machine))
                .singleElement()
                .satisfies(m -> assertThat(m.binding()).isEmpty());

        bindings.get().recordBinding(target(machine, vm), binding, context(machine));
        bindings.get()
                .recordBinding(
                        target(machine, vm),
                        VmBinding.of(CLUSTER, Instant.parse("2026-12-01T10:05:00Z"), binding.shardMetadata()),
                        context(machine));
        assertThat(managedBy(machine))
                .as("a retried record keeps the first binding")
                .singleElement()
                .satisfies(m -> assertThat(m.binding()).contains(binding));

        assertDefinite(expectFailure(() ->
                bindings.get().recordBinding(target("contract-stranger", vm), binding, context("contract-stranger"))));

        bindings.get().clearBinding(target(machine, vm), context(machine));
        bindings.get().clearBinding(target(machine, vm), context(machine));
        assertThat(managedBy(machine))
                .singleElement()
                .satisfies(m -> assertThat(m.binding()).isEmpty());
    }

    /**
     * A machine whose VMID another machine's VM holds now (its own VM destroyed, the VMID reused):
     * that VM is not started, and it is not destroyed; it proves the machine's VM gone, so the
     * machine's Delete succeeds.
     */
    @Test
    void aVmOfAnotherMachineIsNeitherStartedNorDestroyed() throws Exception {
        CreatedVm vm = create("contract-owner");
        fixture().stopVm(vm);
        VmTarget stranger = target("contract-stranger", vm);

        assertDefinite(expectFailure(() -> backend().ensureRunning(stranger, context("contract-stranger"))));
        backend().destroy(stranger, context("contract-stranger"));

        assertThat(fixture().exists(vm)).as("the owner's VM exists").isTrue();
        assertThat(fixture().isRunning(vm))
                .as("the owner's stopped VM was not started")
                .isFalse();
        assertThat(managedBy("contract-owner"))
                .as("the owner's VM still carries its id")
                .hasSize(1);
    }

    @Test
    void aVmOfAnotherMachineGetsNoBootstrapNoDrainAndNoReadinessWait() throws Exception {
        CreatedVm vm = create("contract-owner");
        VmTarget stranger = target("contract-stranger", vm);

        assertDefinite(expectFailure(() -> backend()
                .applyBootstrap(new BootstrapSpec(stranger, CLUSTER, TestBlob.blob()), context("contract-stranger"))));
        assertDefinite(expectFailure(
                () -> backend().drain(new DrainSpec(stranger, CLUSTER, 5), context("contract-stranger"))));
        Optional<ReadinessGate> gate = backend().readiness();
        if (gate.isPresent()) {
            expectFailure(() -> gate.get().awaitNodeReady(stranger, CLUSTER, context("contract-stranger")));
        }

        assertThat(fixture().isRunning(vm)).as("the owner's VM keeps running").isTrue();
        assertThat(managedBy("contract-owner"))
                .as("the owner's VM still carries its id")
                .hasSize(1);
        assertThat(managedBy("contract-stranger")).isEmpty();
    }

    @Test
    void anAlreadyCancelledCallFailsFastAndCreatesNothing() throws Exception {
        CreatedVm vm = create("contract-existing");

        assertFailsFastCancelled(
                context -> backend().cloneAndStart(fixture().cloneSpec("contract-cancelled"), context),
                "contract-cancelled");
        assertFailsFastCancelled(
                context -> backend()
                        .applyBootstrap(
                                new BootstrapSpec(target("contract-existing", vm), CLUSTER, TestBlob.blob()), context),
                "contract-existing");
        assertFailsFastCancelled(
                context -> backend().drain(new DrainSpec(target("contract-existing", vm), CLUSTER, 5), context),
                "contract-existing");

        assertThat(managedBy("contract-cancelled"))
                .as("VMs made by a cancelled Create")
                .isEmpty();
    }

    @Test
    void anInFlightCreateStopsSoonAfterItIsCancelled() throws Exception {
        assumeTrue(fixture().slowDownCreates(SLOW_CREATE), "the fixture cannot make a Create slow");
        ProxmoxBackend slow = backend();
        CloneSpec spec = fixture().cloneSpec("contract-in-flight");
        TestOperationContext context = context("contract-in-flight");

        BackgroundCall call = BackgroundCall.start(() -> slow.cloneAndStart(spec, context));
        assertThat(call.await(Duration.ofMillis(500)))
                .as("the slowed-down Create is still running")
                .isFalse();
        // what the engine does at the deadline
        context.cancel();
        call.interrupt();

        assertThat(call.await(CANCELLATION_BOUND))
                .as("the Create stopped within %s of its cancellation", CANCELLATION_BOUND)
                .isTrue();
        assertThat(call.failure()).as("how the cancelled Create ended").isInstanceOf(BackendException.class);
        BackendFailures.assertReadable((BackendException) call.failure());
    }

    @Test
    void everyCallIsReportedUnderABoundedOpName() throws Exception {
        CreatedVm a = reportedLifecycle("contract-metered-a");
        List<ApiCallLog.Call> first = apiCalls().calls();
        apiCalls().clear();
        CreatedVm b = reportedLifecycle("contract-metered-b");
        List<ApiCallLog.Call> second = apiCalls().calls();

        assertThat(ApiCallLog.opsOf(second))
                .as("op names a second machine's lifecycle added")
                .isSubsetOf(ApiCallLog.opsOf(first));
        assertThat(first).as("calls reported").isNotEmpty();
        for (ApiCallLog.Call call :
                Stream.concat(first.stream(), second.stream()).toList()) {
            assertThat(call.op())
                    .as("op name")
                    .isNotBlank()
                    .hasSizeLessThanOrEqualTo(80)
                    .doesNotContainIgnoringCase("metered")
                    .doesNotContainPattern("(?<![0-9])(" + a.vmid() + "|" + b.vmid() + ")(?![0-9])");
            assertThat(call.duration())
                    .as("duration of %s", call.op())
                    .isNotNull()
                    .isGreaterThanOrEqualTo(Duration.ZERO);
        }
    }

    @Test
    void theNodesIncludeTheZoneCreatesGoTo() throws Exception {
        CreatedVm vm = create("contract-placed");

        List<NodeStatus> nodes = backend().nodes();

        assertThat(nodes)
                .as("nodes reported")
                .filteredOn(n -> n.name().equals(vm.node()))
                .singleElement()
                .satisfies(n -> assertThat(n.online()).as("online").isTrue())
                .satisfies(n -> assertThat(n.maxMemoryBytes()).as("memory").isPositive())
                .satisfies(n -> assertThat(n.maxCpu()).as("CPUs").isPositive())
                .satisfies(
                        n -> assertThat(n.usedMemoryBytes()).as("memory used").isNotNegative());
    }

    /** Create, Configure, readiness, Drain, Delete, describe and nodes; each must report a call. */
    private CreatedVm reportedLifecycle(String machine) throws Exception {
        CreatedVm vm = reported("cloneAndStart", () -> create(machine));
        VmTarget target = target(machine, vm);
        reported("ensureRunning", () -> backend().ensureRunning(target, context(machine)));
        reported(
                "applyBootstrap",
                () -> backend().applyBootstrap(new BootstrapSpec(target, CLUSTER, TestBlob.blob()), context(machine)));
        Optional<ReadinessGate> gate = backend().readiness();
        if (gate.isPresent()) {
            reported("awaitNodeReady", () -> gate.get().awaitNodeReady(target, CLUSTER, context(machine)));
        }
        reported("drain", () -> backend().drain(new DrainSpec(target, CLUSTER, 30), context(machine)));
        reported("destroy", () -> backend().destroy(target, context(machine)));
        reported("describeManaged", () -> backend().describeManaged());
        reported("nodes", () -> backend().nodes());
        return vm;
    }

    private <T> T reported(String verb, ContractCall<T> call) throws Exception {
        int before = apiCalls().size();
        T result = call.run();
        assertThat(apiCalls().size()).as("calls reported by %s", verb).isGreaterThan(before);
        return result;
    }

    private void reported(String verb, BackendFailures.Call call) throws Exception {
        reported(verb, () -> {
            call.run();
            return null;
        });
    }

    private void assertFailsFastCancelled(CancelledCall call, String machine) throws Exception {
        TestOperationContext cancelled = context(machine);
        cancelled.cancel();
        long start = System.nanoTime();
        expectFailure(() -> call.run(cancelled));
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("time a cancelled call took to fail")
                .isLessThan(CANCELLATION_BOUND);
    }

    private static void assertDefinite(BackendException e) {
        assertThat(e.isTransient())
                .as("refusing another machine's VM is definite: %s", e.getMessage())
                .isFalse();
    }
}
