package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A FAILED machine is cleaned up after its retention and its slot offered again by a new machine, and
 * a transient failure does not fail it at all.
 */
class FailedMachineRecoveryTest {
    private static final Duration RETENTION = Duration.ofMillis(200);

    private final SubstrateDouble substrate = new SubstrateDouble();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final List<TransitionKind> recovered = new CopyOnWriteArrayList<>();
    private final List<Change> changes = new CopyOnWriteArrayList<>();
    private LifecycleEngine engine;
    private List<String> ids;

    /** A change the engine reported: before or after is null when a machine came or went. */
    private record Change(Machine before, Machine after) {}

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    private void start(Duration retention, Duration timeout) throws Exception {
        start(retention, timeout, OfferedSlots.ANY);
    }

    private void start(Duration retention, Duration timeout, OfferedSlots offered) throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        List<Offering> offerings =
                List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 6, Map.of("cpu", "1"), Map.of()));
        PriceList prices = new PriceList(Map.of(), 0.003, 0.0008);
        EngineObserver observer = new EngineObserver() {
            @Override
            public void failedRecovered(TransitionKind kind) {
                recovered.add(kind);
            }

            @Override
            public void machineChanged(Machine before, Machine after) {
                changes.add(new Change(before, after));
            }
        };
        engine = new LifecycleEngine(
                new TransitionWork(substrate, new InventoryPlan("proxmox", catalog, offerings, prices)),
                new TransitionTimeouts(timeout, timeout, timeout, timeout),
                workers,
                new InMemoryStateStore(),
                observer,
                new RecoveryPolicy(retention, 30),
                FenceFloor.NONE,
                offered);
        List<Machine> slots = Offerings.renderSlots("proxmox", offerings, catalog, prices);
        engine.addMachines(slots);
        ids = slots.stream().map(Machine::id).toList();
    }

    private Machine awaitState(String id, MachineState state) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> engine.get(id).orElseThrow().state() == state);
        return engine.get(id).orElseThrow();
    }

    /**
     * Runs cleanup passes until the FAILED machine {@code id} has left the inventory and its slot's
     * next machine, {@code successorId}, has taken its place; returns that machine.
     */
    private Machine cleanUpUntilReplaced(String id, String successorId) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    engine.cleanUpFailedMachines();
                    return engine.get(id).isEmpty();
                });
        Machine successor = engine.get(successorId).orElseThrow();
        assertThat(successor.state()).isEqualTo(MachineState.SPECULATIVE);
        return successor;
    }

    private void configured(String id) throws Exception {
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        awaitState(id, MachineState.IDLE);
        engine.mutate(MutationRequest.configure(id, FenceToken.NONE, "c1", new byte[] {1}, Map.of("k", "v")));
        awaitState(id, MachineState.CONFIGURED);
    }

    @Test
    void anUnboundFailedMachineIsDestroyedAndItsSlotOfferedAgainByANewMachineOnceItsRetentionEnds() throws Exception {
        start(RETENTION, Duration.ofSeconds(5));
        String id = ids.get(0);
        substrate.createFails(id, true);
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        Machine failed = awaitState(id, MachineState.FAILED);
        assertThat(substrate.holdsVm(id)).as("the failed clone was left behind").isTrue();
        assertThat(engine.cleanUpFailedMachines())
                .as("nothing is due before the retention ends")
                .isZero();
        byte[] whileFailed = engine.currentCursor();
        int size = engine.size();

        Machine fresh = cleanUpUntilReplaced(id, id + ".2");

        assertThat(substrate.holdsVm(id)).isFalse();
        assertThat(substrate.actions).containsExactly("destroy " + id);
        assertThat(fresh.lastError()).isEmpty();
        assertThat(fresh.host().isEmpty()).isTrue();
        assertThat(fresh.cluster()).isEmpty();
        assertThat(fresh)
                .as("the slot's facts")
                .usingRecursiveComparison()
                .comparingOnlyFields("instanceType", "zone", "capacityType", "pricePerHour", "resources", "labels")
                .isEqualTo(failed);
        assertThat(failed.lastError()).isNotEmpty();
        assertThat(engine.size()).as("one machine per slot").isEqualTo(size);
        assertThat(engine.list(new ListQuery(Set.of(), 0, null)).machines())
                .extracting(Machine::id)
                .contains(id + ".2")
                .doesNotContain(id);
        assertThat(engine.list(new ListQuery(Set.of(), 0, whileFailed)).machines())
                .as("a delta since the failure holds the new machine")
                .extracting(Machine::id)
                .containsExactly(id + ".2");
        // the observer hears of the recovery once the new machine is published
        await().atMost(Duration.ofSeconds(5))
                .untilAsserted(() -> assertThat(recovered).containsExactly(TransitionKind.CREATE));
        // the FAILED machine is gone for good, and the slot is creatable again under its new id
        assertThatThrownBy(() -> engine.mutate(MutationRequest.create(id, FenceToken.NONE)))
                .isInstanceOfSatisfying(
                        RejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.NOT_FOUND));
        engine.mutate(MutationRequest.create(id + ".2", FenceToken.NONE));
        assertThat(awaitState(id + ".2", MachineState.IDLE).host().isEmpty()).isFalse();
    }

    @Test
    void aFailedMachineNeverChangesStateInPlaceAndEachOfItsSlotsMachinesHasANewId() throws Exception {
        start(RETENTION, Duration.ofSeconds(5));
        String id = ids.get(0);
        substrate.createFails(id, true);
        substrate.createFails(id + ".2", true);
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        awaitState(id, MachineState.FAILED);
        cleanUpUntilReplaced(id, id + ".2");
        engine.mutate(MutationRequest.create(id + ".2", FenceToken.NONE));
        awaitState(id + ".2", MachineState.FAILED);
        cleanUpUntilReplaced(id + ".2", id + ".3");

        assertThat(changes)
                .as("no change ever takes a machine out of FAILED under the same id")
                .noneMatch(c -> c.before() != null
                        && c.after() != null
                        && c.before().state() == MachineState.FAILED
                        && c.after().state() != MachineState.FAILED);
        assertThat(changes)
                .as("the two FAILED machines left the inventory")
                .filteredOn(c -> c.after() == null)
                .extracting(c -> c.before().id())
                .containsExactly(id, id + ".2");
    }

    @Test
    void aSlotNoOfferingRendersAnyMoreIsNotOfferedAgain() throws Exception {
        start(RETENTION, Duration.ofSeconds(5), slotId -> !slotId.equals(ids.get(0)));
        String id = ids.get(0);
        substrate.createFails(id, true);
        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
        awaitState(id, MachineState.FAILED);
        int size = engine.size();

        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    engine.cleanUpFailedMachines();
                    return engine.get(id).isEmpty();
                });
        assertThat(engine.get(id + ".2")).isEmpty();
        assertThat(engine.size()).isEqualTo(size - 1);
        assertThat(substrate.holdsVm(id)).isFalse();
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

        Machine fresh = cleanUpUntilReplaced(id, id + ".2");
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

        cleanUpUntilReplaced(before, before + ".2");
        cleanUpUntilReplaced(after, after + ".2");
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
