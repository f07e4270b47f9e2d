package dev.bigfleet.proxmox.backend.fake;

import static dev.bigfleet.proxmox.backend.fake.Fixtures.NODE;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.SECRET;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.SMALL;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.backend;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.bootstrap;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.target;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.BackgroundCall;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FaultModeTest {
    private static final Duration FAST = Duration.ofMillis(5);

    @ParameterizedTest
    @EnumSource(Fault.class)
    void withFaultsOffEverySelectorIsAnOrdinaryClusterId(Fault fault) throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        VmTarget target = target("m-1", vm);
        // a short deadline: a hang or an overrun would show up as a failure or a slow test
        TestOperationContext ctx = TestOperationContext.withDeadline("m-1", Duration.ofSeconds(2));

        long start = System.nanoTime();
        backend.applyBootstrap(bootstrap("m-1", vm, fault.clusterId()), ctx);
        backend.awaitNodeReady(target, fault.clusterId(), ctx);
        backend.drain(new DrainSpec(target, fault.clusterId(), 0), ctx);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).isEmpty();
    }

    @Test
    void withFaultsOffTheCreateLabelIsIgnored() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);

        CreatedVm vm = backend.cloneAndStart(faultyCreate("m-1"), forMachine("m-1"));

        assertThat(vm.vmid()).isEqualTo(101);
    }

    @Test
    void createLabelFailsTheCreateAfterOneStep() {
        FakeProxmoxBackend backend = backend(Duration.ofMillis(20), true);

        long start = System.nanoTime();
        assertThatThrownBy(() -> backend.cloneAndStart(faultyCreate("m-1"), forMachine("m-1")))
                .isInstanceOf(BackendException.class)
                .hasMessage("clone VM pve.small: injected fault (offering label conformance.fault/create=error)");

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(20));
        assertThat(backend.describeManaged()).isEmpty();
    }

    @Test
    void otherCreateLabelValuesDoNotFail() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CloneSpec spec = new CloneSpec("m-1", SMALL, NODE, Map.of(FaultInjector.CREATE_FAULT_LABEL, "none"));

        assertThat(backend.cloneAndStart(spec, forMachine("m-1")).vmid()).isEqualTo(101);
    }

    @Test
    void faultErrorMakesTheBootstrapHookExitNonZero() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");

        assertThatThrownBy(() -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-error"), forMachine("m-1")))
                .isInstanceOf(BackendException.class)
                .hasMessage("run bootstrap on guest pve1/101: guest command exited 1: bootstrap hook failed:"
                        + " injected fault (cluster fault-error)");
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).isEmpty();
    }

    @Test
    void faultTimeoutBlocksUntilCancelled() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        TestOperationContext ctx = forMachine("m-1");

        BackgroundCall call =
                BackgroundCall.start(() -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-timeout"), ctx));
        assertThat(call.await(Duration.ofMillis(200))).as("still hanging").isFalse();
        ctx.cancel();

        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        assertThat(call.failure())
                .isInstanceOf(BackendException.class)
                .hasMessageStartingWith("run bootstrap on guest pve1/101: guest command did not exit: cancelled");
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).isEmpty();
    }

    @Test
    void faultTimeoutAlsoEndsOnInterrupt() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");

        BackgroundCall call = BackgroundCall.start(
                () -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-timeout"), forMachine("m-1")));
        assertThat(call.await(Duration.ofMillis(100))).isFalse();
        call.interrupt();

        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        assertThat(call.failure()).hasMessageContaining("cancelled");
        assertThat(call.interruptedAtEnd()).isTrue();
    }

    @Test
    void faultSlowOkIgnoresInterruptsAndSucceedsAfterTheDeadline() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        TestOperationContext ctx = TestOperationContext.withDeadline("m-1", Duration.ofMillis(100));

        BackgroundCall call =
                BackgroundCall.start(() -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-slow-ok"), ctx));
        // what the engine does at the deadline: cancel and interrupt, and a second time for good measure
        Thread.sleep(120);
        ctx.cancel();
        call.interrupt();
        Thread.sleep(50);
        call.interrupt();

        assertThat(call.await(Duration.ofSeconds(10))).isTrue();
        assertThat(call.failure()).isNull();
        assertThat(call.elapsed()).isGreaterThanOrEqualTo(Duration.ofMillis(550));
        assertThat(call.interruptedAtEnd()).as("the interrupt is re-asserted").isTrue();
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).contains("fault-slow-ok");
    }

    @Test
    void faultDrainErrorLetsConfigureSucceedAndFailsTheDrain() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        VmTarget target = target("m-1", vm);

        backend.applyBootstrap(bootstrap("m-1", vm, "fault-drain-error"), forMachine("m-1"));
        backend.awaitNodeReady(target, "fault-drain-error", forMachine("m-1"));

        assertThatThrownBy(() -> backend.drain(new DrainSpec(target, "fault-drain-error", 0), forMachine("m-1")))
                .isInstanceOf(BackendException.class)
                .hasMessageStartingWith("run drain on guest pve1/101: guest command exited 1: error: cannot evict pod");
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).contains("fault-drain-error");
    }

    @Test
    void faultDrainErrorOnceFailsOnlyTheFirstDrainOfTheVm() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        VmTarget target = target("m-1", vm);
        backend.applyBootstrap(bootstrap("m-1", vm, "fault-drain-error-once"), forMachine("m-1"));
        DrainSpec drain = new DrainSpec(target, "fault-drain-error-once", 0);

        assertThatThrownBy(() -> backend.drain(drain, forMachine("m-1")))
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("cannot evict pod")
                .hasMessageEndingWith("(injected fault, cluster fault-drain-error-once)");
        backend.drain(drain, forMachine("m-1"));

        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).isEmpty();
    }

    @Test
    void aHookThatRanAndFailedSaysTheBootstrapStarted() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");

        BackendException e = (BackendException)
                failureOf(() -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-error"), forMachine("m-1")));

        assertThat(e.bootstrapStarted()).isTrue();
        assertThat(e.isTransient()).isFalse();
    }

    @Test
    void faultReadinessBlockConfiguresButNeverReportsReady() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        backend.applyBootstrap(bootstrap("m-1", vm, "fault-readiness-block"), forMachine("m-1"));
        TestOperationContext ctx = forMachine("m-1");

        BackgroundCall call =
                BackgroundCall.start(() -> backend.awaitNodeReady(target("m-1", vm), "fault-readiness-block", ctx));
        assertThat(call.await(Duration.ofMillis(200))).as("still waiting").isFalse();
        ctx.cancel();

        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        assertThat(call.failure())
                .isInstanceOf(BackendException.class)
                .hasMessageStartingWith("readiness: wait for node of VM pve1/101 to be Ready")
                .hasMessageContaining("cancelled");
    }

    @Test
    void noFailureMessageQuotesTheBootstrapBlob() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, true);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        CreatedVm stopped = Fixtures.create(backend, "m-2");
        backend.cluster().stop(stopped.vmid());
        List<Throwable> failures = new ArrayList<>();

        failures.add(failureOf(() -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-error"), forMachine("m-1"))));
        failures.add(failureOf(() -> backend.applyBootstrap(bootstrap("m-2", stopped, "c"), forMachine("m-2"))));
        failures.add(failureOf(() -> backend.applyBootstrap(bootstrap("m-x", vm, "c"), forMachine("m-x"))));
        failures.add(failureOf(
                () -> backend.applyBootstrap(bootstrap("m-1", new CreatedVm(NODE, 999), "c"), forMachine("m-1"))));
        TestOperationContext cancelled = forMachine("m-1");
        cancelled.cancel();
        failures.add(failureOf(() -> backend.applyBootstrap(bootstrap("m-1", vm, "c"), cancelled)));
        TestOperationContext hung = forMachine("m-1");
        BackgroundCall call =
                BackgroundCall.start(() -> backend.applyBootstrap(bootstrap("m-1", vm, "fault-timeout"), hung));
        Thread.sleep(30);
        hung.cancel();
        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        failures.add(call.failure());

        assertThat(failures).hasSize(6).allSatisfy(failure -> {
            assertThat(failure).isInstanceOf(BackendException.class);
            for (Throwable t = failure; t != null; t = t.getCause()) {
                assertThat(String.valueOf(t.getMessage()))
                        .doesNotContain(SECRET)
                        .doesNotContain("kubeadm");
                assertThat(t.toString()).doesNotContain(SECRET);
            }
        });
    }

    private static CloneSpec faultyCreate(String machineId) {
        return new CloneSpec(machineId, SMALL, NODE, Map.of(FaultInjector.CREATE_FAULT_LABEL, "error"));
    }

    private static Throwable failureOf(BackgroundCall.Body body) {
        try {
            body.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
