package dev.bigfleet.proxmox.backend.fake;

import static dev.bigfleet.proxmox.backend.fake.Fixtures.NODE;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.SMALL;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.backend;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.bootstrap;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.cloneSpec;
import static dev.bigfleet.proxmox.backend.fake.Fixtures.target;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.BackgroundCall;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class FakeProxmoxBackendTest {
    private static final Duration FAST = Duration.ofMillis(5);
    private static final long GIB = 1024L * 1024 * 1024;

    @Test
    void cloneCreatesARunningVmWithVmidsFrom101() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);

        CreatedVm first = Fixtures.create(backend, "m-1");
        CreatedVm second = Fixtures.create(backend, "m-2");

        assertThat(first).isEqualTo(new CreatedVm(NODE, 101));
        assertThat(second.vmid()).isEqualTo(102);
        SimulatedVm vm = backend.cluster().vm(101).orElseThrow();
        assertThat(vm.name()).isEqualTo("bigfleet-101");
        assertThat(vm.machineId()).isEqualTo("m-1");
        assertThat(vm.running()).isTrue();
        assertThat(vm.clusterId()).isEmpty();
        assertThat(backend.describeManaged())
                .containsExactly(
                        new ManagedVm(Optional.of("m-1"), NODE, 101, true),
                        new ManagedVm(Optional.of("m-2"), NODE, 102, true));
    }

    @Test
    void concurrentClonesGetDistinctVmids() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        int n = 64;
        List<Callable<CreatedVm>> clones = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String machine = "m-" + i;
            clones.add(() -> Fixtures.create(backend, machine));
        }

        Set<Long> vmids = new HashSet<>();
        for (Future<CreatedVm> f : runTogether(clones)) {
            vmids.add(f.get().vmid());
        }

        assertThat(vmids).hasSize(n).allSatisfy(v -> assertThat(v).isBetween(101L, 100L + n));
        assertThat(backend.describeManaged()).hasSize(n);
    }

    @Test
    void concurrentClonesOfOneMachineProduceOneVm() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        List<Callable<CreatedVm>> clones = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            clones.add(() -> Fixtures.create(backend, "m-same"));
        }

        Set<CreatedVm> results = new HashSet<>();
        for (Future<CreatedVm> f : runTogether(clones)) {
            results.add(f.get());
        }

        assertThat(results).hasSize(1);
        assertThat(backend.describeManaged()).hasSize(1);
    }

    @Test
    void cloneIntoANodeOutsideTheClusterFails() {
        FakeProxmoxBackend backend = backend(FAST, false);
        CloneSpec spec = new CloneSpec("m-1", SMALL, "nowhere", Map.of());

        assertThatThrownBy(() -> backend.cloneAndStart(spec, forMachine("m-1")))
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("clone VM pve.small")
                .hasMessageContaining("\"nowhere\" is not part of the cluster");
        assertThat(backend.describeManaged()).isEmpty();
    }

    @Test
    void bootstrapRecordsTheClusterAndDrainClearsIt() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        VmTarget target = target("m-1", vm);

        backend.applyBootstrap(bootstrap("m-1", vm, "prod-a"), forMachine("m-1"));
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).contains("prod-a");
        backend.awaitNodeReady(target, "prod-a", forMachine("m-1"));
        assertThatThrownBy(() -> backend.awaitNodeReady(target, "prod-b", forMachine("m-1")))
                .hasMessageContaining("has not joined cluster \"prod-b\"");

        backend.drain(new DrainSpec(target, "prod-a", 30), forMachine("m-1"));
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().clusterId()).isEmpty();
        assertThat(backend.cluster().vm(vm.vmid()).orElseThrow().running()).isTrue();
    }

    @Test
    void bootstrapDrainAndEnsureRunningNameTheUnknownOrStoppedVm() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        backend.cluster().stop(vm.vmid());
        VmTarget target = target("m-1", vm);
        CreatedVm ghost = new CreatedVm(NODE, 4242);

        assertThatThrownBy(() -> backend.applyBootstrap(bootstrap("m-1", vm, "c"), forMachine("m-1")))
                .hasMessage("configure: VM pve1/101 is stopped");
        assertThatThrownBy(() -> backend.drain(new DrainSpec(target, "c", 0), forMachine("m-1")))
                .hasMessage("drain: VM pve1/101 is stopped");
        assertThatThrownBy(() -> backend.applyBootstrap(bootstrap("m-1", ghost, "c"), forMachine("m-1")))
                .hasMessage("configure: VM pve1/4242 does not exist");
        assertThatThrownBy(() -> backend.drain(new DrainSpec(target("m-1", ghost), "c", 0), forMachine("m-1")))
                .hasMessage("drain: VM pve1/4242 does not exist");
        assertThatThrownBy(() -> backend.ensureRunning(target("m-1", ghost), forMachine("m-1")))
                .isInstanceOf(BackendException.class)
                .hasMessage("ensure running: VM pve1/4242 does not exist");
    }

    @Test
    void everyCallOnAVmChecksThatItCarriesTheMachineId() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm vm = Fixtures.create(backend, "m-owner");
        backend.applyBootstrap(bootstrap("m-owner", vm, "c1"), forMachine("m-owner"));
        VmTarget stranger = target("m-stranger", vm);
        TestOperationContext ctx = forMachine("m-stranger");

        assertThatThrownBy(() -> backend.applyBootstrap(bootstrap("m-stranger", vm, "c2"), ctx))
                .hasMessage("configure: VM pve1/101 carries machine id \"m-owner\", not \"m-stranger\";"
                        + " refusing to act on it");
        assertThatThrownBy(() -> backend.drain(new DrainSpec(stranger, "c1", 0), ctx))
                .hasMessageStartingWith("drain: VM pve1/101 carries machine id \"m-owner\"");
        // the VMID is the owner's: the stranger's VM is gone, and its Delete leaves the owner's alone
        backend.destroy(stranger, ctx);
        assertThatThrownBy(() -> backend.ensureRunning(stranger, ctx))
                .hasMessageStartingWith("ensure running: VM pve1/101 carries machine id \"m-owner\"");
        assertThatThrownBy(() -> backend.awaitNodeReady(stranger, "c1", ctx))
                .hasMessageStartingWith("readiness: VM pve1/101 carries machine id \"m-owner\"");

        SimulatedVm untouched = backend.cluster().vm(vm.vmid()).orElseThrow();
        assertThat(untouched.running()).isTrue();
        assertThat(untouched.clusterId()).contains("c1");
    }

    @Test
    void aVmIsFoundByVmidEvenWhenTheStoredNodeIsStale() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm vm = Fixtures.create(backend, "m-1");

        backend.ensureRunning(new VmTarget("m-1", "pve2", vm.vmid()), forMachine("m-1"));
    }

    @Test
    void destroyFreesTheMachineAndItsMemory() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm vm = Fixtures.create(backend, "m-1");
        assertThat(usedMemory(backend, NODE)).isEqualTo(4 * GIB);

        backend.destroy(target("m-1", vm), forMachine("m-1"));

        assertThat(usedMemory(backend, NODE)).isZero();
        // the machine no longer owns a VM, so a new Create clones afresh with a new VMID
        assertThat(Fixtures.create(backend, "m-1").vmid()).isEqualTo(102);
    }

    @Test
    void nodesReportFixedCapacityTheMemoryOfRunningVmsAndTheDisksOfAll() throws Exception {
        FakeProxmoxBackend backend = backend(FAST, false);
        CreatedVm a = Fixtures.create(backend, "m-1");
        Fixtures.create(backend, "m-2");
        backend.cluster().stop(a.vmid());

        assertThat(backend.nodes())
                .containsExactly(
                        new NodeStatus(NODE, true, 512 * GIB, 4 * GIB, 128, 4096 * GIB, 64 * GIB),
                        new NodeStatus("pve2", true, 512 * GIB, 0, 128, 4096 * GIB, 0));
    }

    @Test
    void eachStepTakesTheConfiguredLatency() throws Exception {
        FakeProxmoxBackend backend = backend(Duration.ofMillis(20), false);

        long start = System.nanoTime();
        Fixtures.create(backend, "m-1"); // clone + start + guest agent
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(60));
    }

    @Test
    void zeroLatencyIsInstant() throws Exception {
        FakeProxmoxBackend backend = backend(Duration.ZERO, false);

        long start = System.nanoTime();
        for (int i = 0; i < 200; i++) {
            Fixtures.create(backend, "m-" + i);
        }

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void cancellingTheContextStopsAStepEarly() throws Exception {
        FakeProxmoxBackend backend = backend(Duration.ofSeconds(30), false);
        TestOperationContext ctx = forMachine("m-1");

        BackgroundCall call = BackgroundCall.start(() -> backend.cloneAndStart(cloneSpec("m-1"), ctx));
        Thread.sleep(50);
        ctx.cancel();

        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        assertThat(call.failure())
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("clone VM pve.small: clone template 9000 -> node pve1: cancelled");
        assertThat(backend.describeManaged()).as("the clone never finished").isEmpty();
    }

    @Test
    void interruptingTheWorkerStopsAStepAndKeepsTheInterruptFlag() throws Exception {
        FakeProxmoxBackend backend = backend(Duration.ofSeconds(30), false);

        BackgroundCall call = BackgroundCall.start(() -> backend.cloneAndStart(cloneSpec("m-1"), forMachine("m-1")));
        Thread.sleep(50);
        call.interrupt();

        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        assertThat(call.failure()).isInstanceOf(BackendException.class).hasMessageContaining("cancelled");
        assertThat(call.interruptedAtEnd()).isTrue();
    }

    @Test
    void aCloneCancelledWhileStartingLeavesAStoppedVmThatTheNextCreateAdopts() throws Exception {
        FakeProxmoxBackend backend = backend(Duration.ofMillis(300), false);
        TestOperationContext ctx = forMachine("m-1");

        BackgroundCall call = BackgroundCall.start(() -> backend.cloneAndStart(cloneSpec("m-1"), ctx));
        // cancel as soon as the clone step has produced the VM, i.e. during the start step
        while (backend.cluster().vm(101).isEmpty() && !call.finished()) {
            Thread.sleep(1);
        }
        ctx.cancel();
        assertThat(call.await(Duration.ofSeconds(5))).isTrue();
        assertThat(call.failure()).hasMessageContaining("start clone pve1/101").hasMessageContaining("cancelled");
        assertThat(backend.cluster().vm(101))
                .hasValueSatisfying(vm -> assertThat(vm.running()).isFalse());

        CreatedVm adopted = Fixtures.create(backend, "m-1");

        assertThat(adopted.vmid()).isEqualTo(101);
        assertThat(backend.describeManaged()).containsExactly(new ManagedVm(Optional.of("m-1"), NODE, 101, true));
    }

    private static long usedMemory(FakeProxmoxBackend backend, String node) {
        return backend.nodes().stream()
                .filter(n -> n.name().equals(node))
                .findFirst()
                .orElseThrow()
                .usedMemoryBytes();
    }

    /** Starts every call at the same moment, to maximise interleaving. */
    private static <T> List<Future<T>> runTogether(List<Callable<T>> calls) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(calls.size());
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> call : calls) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return call.call();
                }));
            }
            go.countDown();
            for (Future<T> f : futures) {
                try {
                    f.get();
                } catch (Exception ignored) {
                    // surfaced by the caller's own get()
                }
            }
            return futures;
        } finally {
            pool.shutdownNow();
        }
    }
}
