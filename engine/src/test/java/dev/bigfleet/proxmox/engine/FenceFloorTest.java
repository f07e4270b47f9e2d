package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --fence-min-epoch}: after a state rebuilt from the cluster the fence marks are gone, and the
 * floor is what keeps a zombie shard's stale epoch out, for known and unknown machines alike.
 */
class FenceFloorTest {
    private final ScriptedBackend backend = new ScriptedBackend();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final InventoryPlan plan = new InventoryPlan(
            "proxmox",
            InstanceTypeCatalog.builtIn(9000),
            List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 2, Map.of("cpu", "1"), Map.of())),
            new PriceList(Map.of(), 0.003, 0.0008));
    private final LifecycleEngine engine = new LifecycleEngine(
            new TransitionWork(backend, plan),
            TransitionTimeouts.defaults(),
            workers,
            new InMemoryStateStore(),
            EngineObserver.NONE,
            RecoveryPolicy.defaults(),
            new FenceFloor(7),
            OfferedSlots.ANY);
    private final String id;

    FenceFloorTest() throws Exception {
        InventorySeeder seeder = new InventorySeeder(plan);
        engine.addMachines(seeder.slots());
        id = seeder.slots().get(0).id();
    }

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void anEpochBelowTheFloorIsFencedAndOneAtItIsAccepted() throws Exception {
        RejectedException stale = catchThrowableOfType(
                RejectedException.class,
                () -> engine.mutate(MutationRequest.create(id, new FenceToken("zombie", 6, 99))));
        assertThat(stale.reason()).isEqualTo(RejectionReason.FENCED);
        assertThat(stale.getMessage()).contains("--fence-min-epoch").contains("7");
        assertThat(engine.get(id).orElseThrow().state())
                .as("nothing changed")
                .isEqualTo(dev.bigfleet.proxmox.api.MachineState.SPECULATIVE);

        engine.mutate(MutationRequest.create(id, new FenceToken("shard", 7, -3)));
    }

    @Test
    void theFloorHoldsForUnknownMachinesAndLeavesUnfencedCallsAlone() throws Exception {
        RejectedException unknown = catchThrowableOfType(
                RejectedException.class,
                () -> engine.mutate(MutationRequest.create("no-such-machine", new FenceToken("zombie", -1, 0))));
        assertThat(unknown.reason()).isEqualTo(RejectionReason.FENCED);

        engine.mutate(MutationRequest.create(id, FenceToken.NONE));
    }
}
