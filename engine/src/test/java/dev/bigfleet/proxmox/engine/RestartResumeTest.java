package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.CapacityType;
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

/** What a restart does with transitions it finds in flight: drives on what needs no secret, fails a Configure. */
class RestartResumeTest {
    private final SubstrateDouble substrate = new SubstrateDouble();
    private final ExecutorService workers = Executors.newCachedThreadPool();
    private LifecycleEngine engine;
    private List<Machine> slots;

    @BeforeEach
    void start() {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        List<Offering> offerings =
                List.of(new Offering("pve.small", "n1", CapacityType.ON_DEMAND, 4, Map.of("cpu", "1"), Map.of()));
        PriceList prices = new PriceList(Map.of(), 0.003, 0.0008);
        Duration timeout = Duration.ofSeconds(5);
        engine = new LifecycleEngine(
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

    private void restore(int slot, MachineState state, HostRef host, LastOperation op, long revision) {
        Machine m = slots.get(slot).toBuilder()
                .state(state)
                .host(host)
                .cluster(state == MachineState.CONFIGURING || state == MachineState.DRAINING ? "c1" : "")
                .build();
        engine.restore(new StoredMachine(m, revision, op, Map.of()));
    }

    @Test
    void createsAndDrainsGoOnUnderTheirOperationIdsAndAnInterruptedConfigureFails() throws Exception {
        Instant later = Instant.now().plusSeconds(30);
        String creating = slots.get(0).id();
        String draining = slots.get(1).id();
        String configuring = slots.get(2).id();
        String expired = slots.get(3).id();
        substrate.cloneAndStart(
                new dev.bigfleet.proxmox.spi.CloneSpec(
                        draining,
                        InstanceTypeCatalog.builtIn(9000).find("pve.small").orElseThrow(),
                        "n1",
                        Map.of()),
                dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine(draining));
        restore(
                0,
                MachineState.CREATING,
                HostRef.NONE,
                new LastOperation(TransitionKind.CREATE, "op-7", "", Optional.of(later), 0),
                1);
        restore(
                1,
                MachineState.DRAINING,
                HostRef.of("proxmox", "n1", 101),
                new LastOperation(TransitionKind.DRAIN, "op-8", "", Optional.of(later), 45),
                2);
        restore(
                2,
                MachineState.CONFIGURING,
                HostRef.of("proxmox", "n1", 102),
                new LastOperation(TransitionKind.CONFIGURE, "op-9", "c1", Optional.of(later), 0),
                3);
        restore(
                3,
                MachineState.CREATING,
                HostRef.NONE,
                new LastOperation(
                        TransitionKind.CREATE,
                        "op-10",
                        "",
                        Optional.of(Instant.now().minusSeconds(1)),
                        0),
                4);
        engine.restored(new StoredCounters(4, 10));

        RestartOutcome outcome = engine.resumeInterruptedTransitions();

        assertThat(outcome).isEqualTo(new RestartOutcome(3, 1));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> engine.get(creating).orElseThrow().state() == MachineState.IDLE
                        && engine.get(draining).orElseThrow().state() == MachineState.IDLE
                        && engine.get(expired).orElseThrow().state() == MachineState.FAILED);
        assertThat(engine.mutate(MutationRequest.create(creating, FenceToken.NONE))
                        .operationId())
                .as("an idempotent retry after the restart gets the same operation")
                .isEqualTo("op-7");
        assertThat(substrate.actions).contains("drain " + draining);
        assertThat(engine.get(expired).orElseThrow().lastError()).contains("timed out");
        Machine failed = engine.get(configuring).orElseThrow();
        assertThat(failed.state()).isEqualTo(MachineState.FAILED);
        assertThat(failed.lastError()).contains("op-9").contains("interrupted by a provider restart");
        assertThat(engine.failure(configuring).orElseThrow().bound())
                .as("its hook may have run")
                .isTrue();
    }
}
