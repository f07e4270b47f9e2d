package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.VmBinding;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rules by which a store that lost changes is brought back in line with what the VMs carry: a
 * bound VM's machine is never left free, nothing the resume owns is taken from it, and each decision
 * is counted.
 */
class ClusterRebuildTest {
    private static final String SLOT = "proxmox/OnDemand/pve.small/n1/";
    private static final VmBinding PROD =
            VmBinding.of("prod-1", Instant.parse("2026-12-01T10:00:00Z"), Map.of("pool", "gpu-a"));

    private final ScriptedBackend backend = new ScriptedBackend();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final InventoryPlan plan = new InventoryPlan(
            "proxmox",
            InstanceTypeCatalog.builtIn(9000),
            List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 8, Map.of("cpu", "1"), Map.of())),
            new PriceList(Map.of(), 0.003, 0.0008));
    private final InventorySeeder seeder = new InventorySeeder(plan);
    private final LifecycleEngine engine = new LifecycleEngine(
            new TransitionWork(backend, plan),
            TransitionTimeouts.defaults(),
            workers,
            new InMemoryStateStore(),
            EngineObserver.NONE);
    private final List<String> counted = new CopyOnWriteArrayList<>();
    private final ClusterRebuild rebuild = new ClusterRebuild(engine, seeder, new EngineObserver() {
        @Override
        public void machineRebuilt(String as) {
            counted.add(as);
        }
    });

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    private static ManagedVm vm(int slot, long vmid, Optional<VmBinding> binding) {
        return new ManagedVm(Optional.of(SLOT + String.format("%03d", slot)), "n1", vmid, true, binding);
    }

    private Machine machine(int slot) {
        return engine.get(SLOT + String.format("%03d", slot)).orElseThrow();
    }

    private void store(int slot, MachineState state, long vmid, String cluster) throws Exception {
        Machine m = seeder.slots().get(slot).toBuilder()
                .state(state)
                .host(vmid < 0 ? HostRef.NONE : HostRef.of("proxmox", "n1", vmid))
                .cluster(cluster)
                .build();
        engine.addMachines(List.of(m));
    }

    @Test
    void freeSlotsWhoseVmsExistAreAdoptedBoundOnesAsConfiguredWithTheirClusterAndMetadata() throws Exception {
        engine.addMachines(seeder.slots());

        ClusterRebuild.Report report =
                rebuild.apply(List.of(vm(0, 100, Optional.of(PROD)), vm(1, 101, Optional.empty())));

        Machine bound = machine(0);
        assertThat(bound.state()).isEqualTo(MachineState.CONFIGURED);
        assertThat(bound.cluster()).isEqualTo("prod-1");
        assertThat(bound.shardMetadata()).isEqualTo(Map.of("pool", "gpu-a"));
        assertThat(bound.host().ref()).isEqualTo("n1/100");
        assertThat(machine(1).state()).isEqualTo(MachineState.IDLE);
        assertThat(machine(1).host().ref()).isEqualTo("n1/101");
        assertThat(machine(2).state()).as("a slot without a VM").isEqualTo(MachineState.SPECULATIVE);
        assertThat(report.count("configured")).isEqualTo(1);
        assertThat(report.count("idle")).isEqualTo(1);
        assertThat(counted).containsExactlyInAnyOrder("configured", "idle");
        assertThat(rebuild.lastReport()).contains(report);
    }

    @Test
    void anIdleMachineWhoseVmIsBoundBecomesConfiguredAndAConfiguredOneWithoutABindingIsKept() throws Exception {
        store(0, MachineState.IDLE, 100, "");
        store(1, MachineState.CONFIGURED, 101, "prod-1");

        ClusterRebuild.Report report =
                rebuild.apply(List.of(vm(0, 100, Optional.of(PROD)), vm(1, 101, Optional.empty())));

        assertThat(machine(0).state()).isEqualTo(MachineState.CONFIGURED);
        assertThat(machine(0).cluster()).isEqualTo("prod-1");
        assertThat(machine(1).state())
                .as("bound is the safe reading of a VM that may predate bindings")
                .isEqualTo(MachineState.CONFIGURED);
        assertThat(report.count("kept")).isEqualTo(1);
        assertThat(counted).containsExactly("configured");
    }

    @Test
    void anOlderCreatingOrDeletingMachineWhoseVmIsBoundIsConfiguredButResumesOwnTheRest() throws Exception {
        store(0, MachineState.CREATING, -1, "");
        store(1, MachineState.DELETING, 101, "");
        store(2, MachineState.CONFIGURING, 102, "prod-1");
        store(3, MachineState.DRAINING, 103, "prod-1");
        store(4, MachineState.CREATING, -1, "");

        rebuild.apply(List.of(
                vm(0, 100, Optional.of(PROD)),
                vm(1, 101, Optional.of(PROD)),
                vm(2, 102, Optional.of(PROD)),
                vm(3, 103, Optional.of(PROD)),
                vm(4, 104, Optional.empty())));

        assertThat(machine(0).state()).isEqualTo(MachineState.CONFIGURED);
        assertThat(machine(0).host().ref()).isEqualTo("n1/100");
        assertThat(machine(1).state())
                .as("a Delete would destroy a serving node")
                .isEqualTo(MachineState.CONFIGURED);
        assertThat(machine(2).state()).isEqualTo(MachineState.CONFIGURING);
        assertThat(machine(3).state()).isEqualTo(MachineState.DRAINING);
        assertThat(machine(4).state())
                .as("an unbound VM: the resumed Create adopts it")
                .isEqualTo(MachineState.CREATING);
    }

    @Test
    void aFailedMachineWhoseVmIsBoundHasItsCleanupDrainFirst() throws Exception {
        store(0, MachineState.IDLE, 100, "");
        assertThat(engine.failIfUnchanged(machine(0), "VM n1/100 is gone")).isTrue();
        assertThat(engine.failure(machine(0).id()).orElseThrow().bound()).isFalse();

        rebuild.apply(List.of(vm(0, 100, Optional.of(PROD))));

        assertThat(machine(0).state()).isEqualTo(MachineState.FAILED);
        assertThat(engine.failure(machine(0).id()).orElseThrow().bound()).isTrue();
        assertThat(counted).containsExactly("failed");
    }

    @Test
    void aVmThatKeptOnlyTheDigestOfItsMetadataComesBackWithTheDocumentedPlaceholder() throws Exception {
        engine.addMachines(seeder.slots());
        VmBinding digestOnly = new VmBinding("prod-1", Instant.EPOCH, Map.of(), Optional.of("ab12"));

        rebuild.apply(List.of(vm(0, 100, Optional.of(digestOnly))));

        assertThat(machine(0).shardMetadata()).isEqualTo(Map.of(InventorySeeder.METADATA_DIGEST_KEY, "ab12"));
    }

    @Test
    void aFreshStoreSeededFromBoundVmsCountsEachMachine() throws Exception {
        List<Machine> seeded = seeder.inventory(List.of(vm(0, 100, Optional.of(PROD)), vm(1, 101, Optional.empty())));
        engine.addMachines(seeded);

        ClusterRebuild.Report report = rebuild.seeded(seeded);

        assertThat(machine(0).state()).isEqualTo(MachineState.CONFIGURED);
        assertThat(report.decisions()).hasSize(2);
        assertThat(counted).containsExactlyInAnyOrder("configured", "idle");
    }

    @Test
    void theReaperNeverDestroysABoundVmWhoseMachineIsFree() throws Exception {
        engine.addMachines(seeder.slots());
        backend.managed.add(vm(0, 100, Optional.of(PROD)));
        Reconciler reconciler = new Reconciler(
                engine,
                backend,
                seeder,
                new OrphanPolicy(Duration.ZERO, true, Duration.ofSeconds(5)),
                EngineObserver.NONE,
                rebuild);

        assertThat(reconciler.runOnce().reaped()).isZero();
        assertThat(backend.destroyed).isEmpty();
    }
}
