package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.api.Offerings;
import dev.bigfleet.proxmox.api.PriceList;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A standby's engine: the changes it follows replace what its view holds, cursors it hands out
 * stay valid, and taking over goes on from the followed state: retries get the followed operation
 * ids, followed marks fence, numbering continues, and an interrupted Configure fails naming the
 * failover.
 */
class StandbyFollowTest {
    private final SubstrateDouble substrate = new SubstrateDouble();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private LifecycleEngine standby;
    private List<Machine> slots;

    @BeforeEach
    void start() {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        List<Offering> offerings =
                List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 3, Map.of("cpu", "1"), Map.of()));
        PriceList prices = new PriceList(Map.of(), 0.003, 0.0008);
        Duration timeout = Duration.ofSeconds(5);
        standby = new LifecycleEngine(
                new TransitionWork(substrate, new InventoryPlan("proxmox", catalog, offerings, prices)),
                new TransitionTimeouts(timeout, timeout, timeout, timeout),
                workers,
                new InMemoryStateStore(),
                EngineObserver.NONE,
                RecoveryPolicy.defaults());
        slots = Offerings.renderSlots("proxmox", offerings, catalog, prices);
    }

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void followedChangesReplaceTheViewAndTakingOverGoesOnFromThem() throws Exception {
        StoreFollower follower = standby.follower();
        Instant later = Instant.now().plusSeconds(30);
        Machine idle = slots.get(0).toBuilder()
                .state(MachineState.IDLE)
                .host(HostRef.of("proxmox", "n1", 101))
                .build();
        follower.changed(new StoredMachine(slots.get(0), 1, null, Map.of()));
        follower.changed(new StoredMachine(slots.get(1), 2, null, Map.of()));
        follower.changed(new StoredMachine(slots.get(2), 3, null, Map.of()));
        follower.counters(new StoredCounters(3, 0));
        byte[] cursor = standby.currentCursor();

        follower.changed(new StoredMachine(
                idle, 4, new LastOperation(TransitionKind.CREATE, "op-1", ""), Map.of("shard", new FenceMark(2, 7))));
        follower.changed(new StoredMachine(
                slots.get(1).toBuilder()
                        .state(MachineState.CONFIGURING)
                        .host(HostRef.of("proxmox", "n1", 102))
                        .cluster("c1")
                        .build(),
                5,
                new LastOperation(TransitionKind.CONFIGURE, "op-2", "c1", Optional.of(later), 0),
                Map.of()));
        follower.removed(slots.get(2).id());
        follower.counters(new StoredCounters(6, 2));

        assertThat(standby.size()).isEqualTo(2);
        assertThat(standby.get(slots.get(0).id())).contains(idle);
        assertThat(standby.revision()).isEqualTo(6);
        ListResult delta = standby.list(new ListQuery(java.util.Set.of(), 0, cursor));
        assertThat(delta.machines())
                .extracting(Machine::id)
                .containsExactly(slots.get(0).id(), slots.get(1).id());

        // taking over, as a restart does, with what was followed
        RestartOutcome outcome = standby.resumeInterruptedTransitions(Interruption.FAILOVER);
        assertThat(outcome).isEqualTo(new RestartOutcome(0, 1));
        Machine failed = standby.get(slots.get(1).id()).orElseThrow();
        assertThat(failed.state()).isEqualTo(MachineState.FAILED);
        assertThat(failed.lastError()).contains("op-2").contains("interrupted by a leader failover");

        assertThat(standby.mutate(MutationRequest.create(slots.get(0).id(), FenceToken.NONE))
                        .operationId())
                .as("a retry after the failover gets the operation id the old leader gave")
                .isEqualTo("op-1");
        assertThatThrownBy(
                        () -> standby.mutate(MutationRequest.delete(slots.get(0).id(), new FenceToken("shard", 2, 7))))
                .isInstanceOfSatisfying(
                        RejectedException.class, e -> assertThat(e.reason()).isEqualTo(RejectionReason.FENCED));
        Accepted deleted = standby.mutate(MutationRequest.delete(slots.get(0).id(), new FenceToken("shard", 2, 8)));
        assertThat(deleted.operationId())
                .as("numbering continues after the followed counter")
                .isEqualTo("op-3");
        assertThat(standby.revision()).isGreaterThan(6);
    }
}
