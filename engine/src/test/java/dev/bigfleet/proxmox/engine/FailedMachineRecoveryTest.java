package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A FAILED machine is cleaned up after its retention, and a transient failure does not fail it at all. */
class FailedMachineRecoveryTest {
    private static final Duration RETENTION = Duration.ofMillis(200);

    private final SubstrateDouble substrate = new SubstrateDouble();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final List<TransitionKind> recovered = new CopyOnWriteArrayList<>();
    private LifecycleEngine engine;
    private List<String> ids;

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    private void start(Duration retention, Duration timeout) throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        List<Offering> offerings =
                List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 6, Map.of("cpu", "1"), Map.of()));
        PriceList prices = new PriceList(Map.of(), 0.003, 0.0008);
        EngineObserver observer = new EngineObserver() {
            @Override
            public void failedRecovered(TransitionKind kind) {
                recovered.add(kind);
            }
        };
        engine = new LifecycleEngine(
                new TransitionWork(substrate, new InventoryPlan("proxmox", catalog, offerings, prices)),
                new TransitionTimeouts(timeout, timeout, timeout, timeout),
                workers,
                new InMemoryStateStore(),
                observer,
                new RecoveryPolicy(retention, 30));
        List<Machine> slots = Offerings.renderSlots("proxmox", offerings, catalog, prices);
        engine.addMachines(slots);
        ids = slots.stream().map(Machine::id).toList();
    }

    private Machine awaitState(String id, MachineState state) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> engine.get(id).orElseThrow().state() == state);
        return engine.get(id).orElseThrow();
    }

    /** Runs cleanup passes until the machine is in {@code state}. */
    private Machine cleanUpUntil(String id, MachineState state) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    engine.cleanUpFailedMachines();
                    return engine.get(id).orElseThrow().state() == state;
                });
        return engine.get(id).orElseThrow();
    }

    private void configured(String id) throws Exception {
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        awaitState(id, MachineState.IDLE);
        engine.mutate(MutationRequest.configure(id, FenceToken.NONE, "c1", new byte[] {1}, Map.of("k", "v")));
        awaitState(id, MachineState.CONFIGURED);
    }

    @Test
    void anUnboundFailedMachineIsDestroyedAndSpeculativeAgainAsAFreshChangeOnceItsRetentionEnds() throws Exception {
        start(RETENTION, Duration.ofSeconds(5));
        String id = ids.get(0);
        substrate.createFails(id, true);
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        Machine failed = awaitState(id, MachineState.FAILED);
        assertThat(substrate.holdsVm(id)).as("the failed clone was left behind").isTrue();
        assertThat(engine.cleanUpFailedMachines())
                .as("nothing is due before the retention ends")
                .isZero();

        long before = engine.revision();
        Machine fresh = cleanUpUntil(id, MachineState.SPECULATIVE);

        assertThat(substrate.holdsVm(id)).isFalse();
        assertThat(substrate.actions).containsExactly("destroy " + id);
        assertThat(fresh.lastError()).isEmpty();
        assertThat(fresh.host().isEmpty()).isTrue();
        assertThat(fresh.cluster()).isEmpty();
        assertThat(failed.lastError()).isNotEmpty();
        assertThat(engine.revision()).isGreaterThan(before);
        // the observer hears of the recovery just after the machine is published SPECULATIVE
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(recovered).containsExactly(TransitionKind.CREATE));
        // and the slot is creatable again
        substrate.createFailsTransiently(id, 0);
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        assertThat(engine.get(id).orElseThrow().state())
                .isIn(MachineState.CREATING, MachineState.FAILED, MachineState.IDLE);
    }

    @Test
    void aMachineFailedInDrainIsDrainedAgainBeforeItsVmIsDestroyedAndStaysFailedWhileTheDrainFails() throws Exception {
        start(RETENTION, Duration.ofSeconds(5));
        String id = ids.get(1);
        configured(id);
        substrate.drainFails(id, 3);
        engine.mutate(MutationRequest.drain(id, FenceToken.NONE, 30));
        Machine failed = awaitState(id, MachineState.FAILED);
        assertThat(engine.failure(id).orElseThrow().bound()).isTrue();

        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    engine.cleanUpFailedMachines();
                    // the failure record is marked before the machine's new last_error is published
                    return engine.failedNeedingAttention() == 1
                            && engine.get(id).orElseThrow().lastError().contains("cleanup attempt 1 failed");
                });
        Machine stillFailed = engine.get(id).orElseThrow();
        assertThat(stillFailed.state()).isEqualTo(MachineState.FAILED);
        assertThat(stillFailed.lastError()).startsWith(failed.lastError()).contains("cleanup attempt 1 failed");
        assertThat(substrate.holdsVm(id))
                .as("a live node is never destroyed undrained")
                .isTrue();
        assertThat(substrate.actions).doesNotContain("destroy " + id);

        Machine fresh = cleanUpUntil(id, MachineState.SPECULATIVE);
        assertThat(fresh.lastError()).isEmpty();
        assertThat(substrate.actions).endsWith("drain " + id, "destroy " + id);
        assertThat(engine.failedNeedingAttention()).isZero();
        // the observer hears of the recovery just after the machine is published SPECULATIVE
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(recovered).containsExactly(TransitionKind.DRAIN));
    }

    @Test
    void aConfigureThatFailedBeforeItsHookIsUnboundAndOneAfterItIsDrainedFirst() throws Exception {
        start(RETENTION, Duration.ofSeconds(5));
        String before = ids.get(2);
        String after = ids.get(3);
        for (String id : List.of(before, after)) {
            engine.mutate(MutationRequest.create(id, FenceToken.NONE));
            awaitState(id, MachineState.IDLE);
        }
        substrate.bootstrapFails(before, false);
        substrate.bootstrapFails(after, true);
        engine.mutate(MutationRequest.configure(before, FenceToken.NONE, "c1", new byte[] {1}, Map.of()));
        engine.mutate(MutationRequest.configure(after, FenceToken.NONE, "c1", new byte[] {1}, Map.of()));
        awaitState(before, MachineState.FAILED);
        awaitState(after, MachineState.FAILED);
        assertThat(engine.failure(before).orElseThrow().bound()).isFalse();
        assertThat(engine.failure(after).orElseThrow().bound()).isTrue();

        cleanUpUntil(before, MachineState.SPECULATIVE);
        cleanUpUntil(after, MachineState.SPECULATIVE);
        assertThat(substrate.actions).doesNotContain("drain " + before).contains("drain " + after);
        assertThat(substrate.actions.indexOf("drain " + after))
                .isLessThan(substrate.actions.indexOf("destroy " + after));
    }

    @Test
    void aZeroRetentionKeepsFailedMachinesAsTheyAre() throws Exception {
        start(Duration.ZERO, Duration.ofSeconds(5));
        String id = ids.get(4);
        substrate.createFails(id, true);
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        awaitState(id, MachineState.FAILED);
        Thread.sleep(300);
        assertThat(engine.cleanUpFailedMachines()).isZero();
        assertThat(engine.get(id).orElseThrow().state()).isEqualTo(MachineState.FAILED);
        assertThat(substrate.holdsVm(id)).isTrue();
    }

    @Test
    void transientFailuresAreRetriedUntilTheyClearAndOnlyTheDeadlineFailsTheTransition() throws Exception {
        start(Duration.ZERO, Duration.ofSeconds(4));
        String ridesItOut = ids.get(0);
        String outlasted = ids.get(5);
        substrate.createFailsTransiently(ridesItOut, 2);
        substrate.createFailsTransiently(outlasted, 1_000);
        engine.mutate(MutationRequest.create(ridesItOut, FenceToken.NONE));
        engine.mutate(MutationRequest.create(outlasted, FenceToken.NONE));

        Machine idle = awaitState(ridesItOut, MachineState.IDLE);
        assertThat(idle.host().isEmpty()).isFalse();
        Machine failed = awaitState(outlasted, MachineState.FAILED);
        assertThat(failed.lastError()).contains("timed out");
    }
}
