package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import dev.bigfleet.proxmox.spi.ManagedVm;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReconcilerTest {
    private final ScriptedBackend backend = new ScriptedBackend();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
    private final InventoryPlan plan = new InventoryPlan(
            "proxmox",
            catalog,
            List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 2, Map.of("cpu", "1"), Map.of())),
            new PriceList(Map.of(), 0.003, 0.0008));
    private final InventorySeeder seeder = new InventorySeeder(plan);
    private final LifecycleEngine engine = new LifecycleEngine(
            new TransitionWork(backend, plan),
            TransitionTimeouts.defaults(),
            workers,
            new InMemoryStateStore(),
            EngineObserver.NONE);
    private final Reconciler reconciler = new Reconciler(
            engine,
            backend,
            seeder,
            new OrphanPolicy(Duration.ZERO, true, Duration.ofSeconds(5)),
            EngineObserver.NONE,
            new ClusterRebuild(engine, seeder, EngineObserver.NONE));

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void seedingMakesSlotsThatOwnAVmIdleWithItsHost() throws Exception {
        backend.managed.add(new ManagedVm(Optional.of("proxmox/OnDemand/pve.small/n1/001"), "n2", 123, false));
        engine.addMachines(seeder.inventory(backend.describeManaged()));
        assertThat(engine.get("proxmox/OnDemand/pve.small/n1/000").orElseThrow().state())
                .isEqualTo(MachineState.SPECULATIVE);
        Machine owned = engine.get("proxmox/OnDemand/pve.small/n1/001").orElseThrow();
        assertThat(owned.state()).isEqualTo(MachineState.IDLE);
        assertThat(owned.host().ref()).isEqualTo("n2/123");
        assertThat(owned.zone()).isEqualTo("n1");
    }

    @Test
    void aSlotIsHeldByItsNewestMachineAndAMachineThatLeftTheInventoryIsNeverAdoptedBack() throws Exception {
        String slot = "proxmox/OnDemand/pve.small/n1/000";
        // the slot's second machine holds it; a VM still carries the id of the first, which left
        engine.addMachines(List.of(
                seeder.slotOf(slot).orElseThrow().toBuilder().id(slot + ".2").build()));
        engine.addMachines(seeder.unheld(engine.ids()));
        backend.managed.add(new ManagedVm(Optional.of(slot), "n1", 150, true));

        Reconciler.Pass pass = reconciler.runOnce();

        assertThat(pass.added())
                .as("nothing is added for a slot its newer machine holds")
                .isZero();
        assertThat(engine.get(slot)).isEmpty();
        assertThat(engine.ids()).containsExactlyInAnyOrder(slot + ".2", "proxmox/OnDemand/pve.small/n1/001");
        assertThat(pass.reaped())
                .as("the superseded machine's VM has no owner: an orphan")
                .isEqualTo(1);
        assertThat(backend.destroyed).containsExactly(150L);
    }

    @Test
    void aVmOfASlotsLaterMachineMakesItTheSlotsMachineWhenNothingIsKnown() {
        String slot = "proxmox/OnDemand/pve.small/n1/001";
        List<Machine> seeded = seeder.inventory(List.of(
                new ManagedVm(Optional.of(slot + ".3"), "n1", 160, true),
                new ManagedVm(Optional.of(slot + ".2"), "n1", 161, true)));
        assertThat(seeded)
                .extracting(Machine::id)
                .as("one machine per slot: the newest, on its VM; the older one's VM is not adopted")
                .containsExactlyInAnyOrder("proxmox/OnDemand/pve.small/n1/000", slot + ".3");
        Machine held = seeded.stream()
                .filter(m -> m.id().equals(slot + ".3"))
                .findFirst()
                .orElseThrow();
        assertThat(held.state()).isEqualTo(MachineState.IDLE);
        assertThat(held.host().ref()).isEqualTo("n1/160");
        assertThat(held.instanceType()).isEqualTo("pve.small");
    }

    @Test
    void aRestartRetiresASpeculativeMachineANewerOneOfItsSlotSupersedesOrNoOfferingRenders() throws Exception {
        String slot = "proxmox/OnDemand/pve.small/n1/000";
        Machine first = seeder.slotOf(slot).orElseThrow();
        engine.addMachines(List.of(
                first,
                first.toBuilder().id(slot + ".2").build(),
                first.toBuilder().id("proxmox/OnDemand/pve.small/n1/009.4").build()));
        engine.addMachines(seeder.unheld(engine.ids()));

        assertThat(engine.retireUnbacked(seeder.slotsById().keySet())).isEqualTo(2);
        assertThat(engine.ids()).containsExactlyInAnyOrder(slot + ".2", "proxmox/OnDemand/pve.small/n1/001");
    }

    @Test
    void aTaggedVmWithoutASlotIsAddedOnceAndAQuietPassBumpsNoRevision() throws Exception {
        engine.addMachines(seeder.inventory(List.of()));
        backend.managed.add(new ManagedVm(Optional.of("proxmox/OnDemand/pve.small/n1/007"), "n1", 140, true));
        assertThat(reconciler.runOnce().added()).isEqualTo(1);
        backend.managed.clear();
        backend.managed.add(new ManagedVm(Optional.of("proxmox/OnDemand/pve.small/n1/007"), "n1", 140, true));
        Machine adopted = engine.get("proxmox/OnDemand/pve.small/n1/007").orElseThrow();
        assertThat(adopted.state()).isEqualTo(MachineState.IDLE);
        assertThat(adopted.instanceType()).isEqualTo("pve.small");
        assertThat(adopted.host().ref()).isEqualTo("n1/140");
        assertThat(adopted.allocatable()).containsEntry("memory", "4Gi");

        long revision = engine.revision();
        Reconciler.Pass quiet = reconciler.runOnce();
        assertThat(quiet).isEqualTo(new Reconciler.Pass(0, 0, 0, 0, 0));
        assertThat(engine.revision()).isEqualTo(revision);
    }

    @Test
    void aMachineWhoseVmVanishedFailsOnTheSecondPassNamingTheHost() throws Exception {
        engine.addMachines(seeder.inventory(List.of()));
        String id = "proxmox/OnDemand/pve.small/n1/000";
        engine.mutate(MutationRequest.create(id, dev.bigfleet.proxmox.api.FenceToken.NONE));
        org.awaitility.Awaitility.await()
                .until(() -> engine.get(id).orElseThrow().state() == MachineState.IDLE);
        String host = engine.get(id).orElseThrow().host().ref();
        backend.managed.add(new ManagedVm(
                Optional.of(id), "n1", engine.get(id).orElseThrow().host().vmid(), true));
        assertThat(reconciler.runOnce().failedMissing()).isZero();

        backend.managed.clear(); // destroyed out of band
        assertThat(reconciler.runOnce().failedMissing())
                .as("one odd listing is not enough")
                .isZero();
        assertThat(engine.get(id).orElseThrow().state()).isEqualTo(MachineState.IDLE);
        assertThat(reconciler.runOnce().failedMissing()).isEqualTo(1);
        Machine failed = engine.get(id).orElseThrow();
        assertThat(failed.state()).isEqualTo(MachineState.FAILED);
        assertThat(failed.lastError()).contains(host).contains("gone");
    }

    @Test
    void vmsWithoutALiveOwnerAreDestroyedAfterTheGrace() throws Exception {
        engine.addMachines(seeder.inventory(List.of()));
        // no machine id at all, and one whose machine is Speculative (its Create never finished in time)
        backend.managed.add(new ManagedVm(Optional.empty(), "n1", 150, true));
        backend.managed.add(new ManagedVm(Optional.of("proxmox/OnDemand/pve.small/n1/001"), "n1", 151, false));
        assertThat(reconciler.runOnce().reaped()).isEqualTo(2);
        assertThat(backend.destroyed).containsExactlyInAnyOrder(150L, 151L);

        ScriptedBackend quiet = new ScriptedBackend();
        quiet.managed.add(new ManagedVm(Optional.empty(), "n1", 152, true));
        Reconciler logOnly = new Reconciler(
                engine,
                quiet,
                seeder,
                new OrphanPolicy(Duration.ZERO, false, Duration.ofSeconds(5)),
                EngineObserver.NONE,
                new ClusterRebuild(engine, seeder, EngineObserver.NONE));
        assertThat(logOnly.runOnce().reaped()).isZero();
        assertThat(quiet.destroyed).isEmpty();

        Reconciler patient = new Reconciler(
                engine,
                quiet,
                seeder,
                new OrphanPolicy(Duration.ofMinutes(10), true, Duration.ofSeconds(5)),
                EngineObserver.NONE,
                new ClusterRebuild(engine, seeder, EngineObserver.NONE));
        assertThat(patient.runOnce().reaped()).as("within the grace").isZero();
        assertThat(quiet.destroyed).isEmpty();
    }

    @Test
    void theVmOfAFailedMachineIsNeverReapedAndAFailedMachineWhoseVmIsGoneStopsClaimingItsHost() throws Exception {
        engine.addMachines(seeder.inventory(List.of()));
        String id = "proxmox/OnDemand/pve.small/n1/001";
        backend.script(id, ScriptedBackend.Script.OK);
        engine.mutate(MutationRequest.create(id, dev.bigfleet.proxmox.api.FenceToken.NONE));
        org.awaitility.Awaitility.await()
                .until(() -> engine.get(id).orElseThrow().state() == MachineState.IDLE);
        long vmid = engine.get(id).orElseThrow().host().vmid();
        backend.script(id, ScriptedBackend.Script.FAIL);
        engine.mutate(MutationRequest.configure(
                id, dev.bigfleet.proxmox.api.FenceToken.NONE, "c1", new byte[] {1}, java.util.Map.of()));
        org.awaitility.Awaitility.await()
                .until(() -> engine.get(id).orElseThrow().state() == MachineState.FAILED);
        backend.managed.add(new ManagedVm(Optional.of(id), "n1", vmid, true));

        assertThat(reconciler.runOnce().reaped())
                .as("the grace is zero, yet a FAILED machine's VM stays")
                .isZero();
        assertThat(backend.destroyed).isEmpty();

        backend.managed.clear(); // gone out of band
        assertThat(reconciler.runOnce().hostsReleased())
                .as("one odd listing is not enough")
                .isZero();
        assertThat(reconciler.runOnce().hostsReleased()).isEqualTo(1);
        Machine failed = engine.get(id).orElseThrow();
        assertThat(failed.state()).isEqualTo(MachineState.FAILED);
        assertThat(failed.host().isEmpty()).as("it no longer claims the VM").isTrue();
        assertThat(failed.lastError()).isNotEmpty();
    }
}
