package dev.bigfleet.proxmox.conformance.behaviour;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.FaultSelectors;
import dev.bigfleet.proxmox.conformance.support.MachinePool;
import dev.bigfleet.proxmox.conformance.support.Metadata;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.target.RestartableServer;
import dev.bigfleet.proxmox.conformance.target.Targets;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineList;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Durability behaviours B1001–B1007: state is driven on a provider started with durable state,
 * the provider is killed without warning and restarted on the same state, and every behaviour is
 * checked against what it held before. One kill serves all seven, since each restart costs a
 * process start.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DurabilityTest {
    private ProviderClient client;
    private final Shard fencedShard = Shard.fresh();
    private final Shard negativeShard = Shard.fresh();
    private String fenced;
    private String retried;
    private String retriedOperation;
    private String configured;
    private final Map<String, String> metadata = Metadata.awkward(55);
    private String interrupted;
    private String idle;
    private final Set<String> operationsBefore = new HashSet<>();
    private final Map<String, MachineState> inventoryBefore = new TreeMap<>();
    private ByteString cursorBefore;

    @BeforeAll
    void driveStateThenKillAndRestart() throws Exception {
        assumeTrue(Targets.restartable().isPresent(), "no restartable provider with durable state");
        RestartableServer server = Targets.restartable().get();
        client = ProviderClient.forTarget(server.target());

        fenced = MachinePool.claimSpeculative(client);
        operationsBefore.add(Expect.ok(client.tryCreate(Requests.create(fenced, fencedShard.at(5, 5))), "Create")
                .getOperationId());
        Await.state(client, fenced, States.IDLE);
        // tokens are signed numbers: a negative mark is kept like any other
        Expect.notFenced(
                client.tryCreate(Requests.create(fenced, negativeShard.at(-3, -2))), "negative token before restart");

        retried = MachinePool.claimSpeculative(client);
        retriedOperation = Steps.create(client, retried).operationId();
        operationsBefore.add(retriedOperation);

        configured = Steps.idleMachine(client);
        operationsBefore.add(
                Steps.configure(client, configured, "durable-cluster", metadata).operationId());

        idle = Steps.idleMachine(client);

        interrupted = Steps.idleMachine(client);
        TransitionAck hanging = Expect.ok(
                client.tryConfigure(Requests.configure(interrupted, FaultSelectors.CONFIGURE_TIMEOUT, Map.of())),
                "Configure that hangs");
        operationsBefore.add(hanging.getOperationId());
        assertThat(client.get(interrupted).getState()).isEqualTo(MachineState.MACHINE_STATE_CONFIGURING);

        MachineList all = client.listAll();
        all.getMachinesList().forEach(m -> inventoryBefore.put(m.getId(), m.getState()));
        cursorBefore = all.getRevision();

        server.killAndRestart();
        client.awaitReachable(60);
    }

    @Test
    @DisplayName(
            "B1001 after kill and restart on the same state, a not-strictly-newer token is still FAILED_PRECONDITION")
    void fenceMarksSurvive() {
        Expect.fenced(client.tryCreate(Requests.create(fenced, fencedShard.at(5, 5))), "replayed token after restart");
        Expect.fenced(client.tryCreate(Requests.create(fenced, fencedShard.at(5, 4))), "older token after restart");
        Expect.fenced(client.tryCreate(Requests.create(fenced, fencedShard.at(4, 9))), "older epoch after restart");
        Expect.notFenced(client.tryCreate(Requests.create(fenced, fencedShard.at(5, 6))), "newer token after restart");
        Expect.fenced(client.tryCreate(Requests.create(fenced, negativeShard.at(-3, -2))), "replayed negative token");
        Expect.fenced(client.tryCreate(Requests.create(fenced, negativeShard.at(-3, -3))), "older negative token");
        Expect.fenced(client.tryCreate(Requests.create(fenced, negativeShard.at(-4, 9))), "older negative epoch");
        Expect.notFenced(client.tryCreate(Requests.create(fenced, negativeShard.at(-3, -1))), "newer negative token");
    }

    @Test
    @DisplayName("B1002 after restart, an idempotent retry of a pre-restart mutation returns the same operation_id")
    void retriesKeepTheirOperationId() {
        TransitionAck again = Expect.ok(client.tryCreate(Requests.create(retried)), "Create retried after restart");
        assertThat(again.getOperationId()).isEqualTo(retriedOperation);
        assertThat(again.getMachine().getState()).isEqualTo(MachineState.MACHINE_STATE_IDLE);
    }

    @Test
    @DisplayName(
            "B1003 after restart, a CONFIGURED machine still reports its cluster and verbatim metadata on Get and List")
    void bindingSurvives() {
        Machine got = client.get(configured);
        assertThat(got.getState()).isEqualTo(MachineState.MACHINE_STATE_CONFIGURED);
        assertThat(got.getCluster()).isEqualTo("durable-cluster");
        Metadata.assertVerbatim(metadata, got.getShardMetadataMap(), "Get after restart");
        Machine listed = client.findInList(configured, MachineState.MACHINE_STATE_CONFIGURED)
                .orElseThrow();
        Metadata.assertVerbatim(metadata, listed.getShardMetadataMap(), "List(CONFIGURED) after restart");
    }

    @Test
    @DisplayName("B1004 after restart, the inventory (ids and states) is identical: nothing lost or duplicated")
    void inventorySurvives() {
        MachineList all = client.listAll();
        Map<String, MachineState> after = new TreeMap<>();
        for (Machine m : all.getMachinesList()) {
            assertThat(after.put(m.getId(), m.getState()))
                    .as("duplicate id %s", m.getId())
                    .isNull();
        }
        assertThat(after.keySet()).isEqualTo(inventoryBefore.keySet());
        inventoryBefore.forEach((id, state) -> {
            if (!States.isTransitional(state)) {
                assertThat(after.get(id)).as("state of %s", id).isEqualTo(state);
            }
        });
    }

    @Test
    @DisplayName(
            "B1005 after restart, cursors and new operation_ids are well-formed and no pre-restart operation_id is reused")
    void cursorsAndOperationIdsContinue() {
        MachineList delta = client.list(
                ListFilter.newBuilder().setSinceRevision(cursorBefore).build());
        assertThat(delta.getRevision().isEmpty()).isFalse();
        assertThat(delta.getMachinesList()).extracting(Machine::getId).contains(interrupted);
        MachineList again = client.list(
                ListFilter.newBuilder().setSinceRevision(delta.getRevision()).build());
        assertThat(again.getMachinesList()).extracting(Machine::getId).doesNotContain(configured);

        TransitionAck drain = Expect.ok(client.tryDrain(Requests.drain(configured)), "Drain after restart");
        assertThat(drain.getOperationId()).isNotEmpty().isNotIn(operationsBefore);
        // where it ends depends on the substrate (an in-memory fake forgets its VMs on restart)
        Await.settled(client, configured);
    }

    @Test
    @DisplayName(
            "B1006 a transition interrupted by the kill comes back FAILED with last_error, or in a clean stable state")
    void interruptedTransitionsDoNotHang() {
        Machine m = Await.settled(client, interrupted, Duration.ofSeconds(30));
        assertThat(States.isTransitional(m.getState())).isFalse();
        if (m.getState() == MachineState.MACHINE_STATE_FAILED) {
            assertThat(m.getLastError()).isNotBlank();
        }
    }

    @Test
    @DisplayName("B1007 after restart, a brand-new shard's first low token is accepted")
    void newShardsStartFresh() {
        Shard brandNew = Shard.fresh();
        Expect.ok(
                client.tryConfigure(Requests.configure(idle, "new-shard-cluster", Map.of(), brandNew.at(0, 1))),
                "first token of a new shard");
        Expect.notFenced(client.tryCreate(Requests.create(fenced, brandNew.at(0, 1))), "new shard on a fenced machine");
        Await.settled(client, idle);
    }
}
