package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURING;
import static dev.bigfleet.proxmox.conformance.support.States.CREATING;
import static dev.bigfleet.proxmox.conformance.support.States.DELETING;
import static dev.bigfleet.proxmox.conformance.support.States.DRAINING;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.CoreConformance;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Trace;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Lifecycle behaviours B101–B109: the four edges, their transitional states and bindings. */
class LifecycleTest extends CoreConformance {

    @Test
    @DisplayName(
            "B101 four full Speculative->Idle->Configured->Idle round trips on one machine leave no binding at Idle")
    void fourRoundTrips() {
        String id = freshMachine();
        boolean deleteSupported = true;
        for (int round = 1; round <= 4; round++) {
            String where = "round " + round;
            if (client.get(id).getState() == SPECULATIVE) {
                assertBindingCleared(Steps.create(client, id).settled(), where + " after Create");
            }
            Map<String, String> metadata = Map.of("round", Integer.toString(round), "only-in-" + round, "x");
            Machine configured = Steps.configure(client, id, "b101-cluster-" + round, metadata)
                    .settled();
            assertThat(configured.getCluster()).as(where).isEqualTo("b101-cluster-" + round);
            assertThat(configured.getShardMetadataMap()).as(where).isEqualTo(metadata);
            assertBindingCleared(Steps.drain(client, id).settled(), where + " after Drain");
            if (deleteSupported) {
                // a provider without Delete (core only) cycles Idle->Configured->Idle instead
                Outcome<TransitionAck> delete = client.tryDelete(Requests.delete(id));
                if (delete.code() == Status.Code.UNIMPLEMENTED) {
                    deleteSupported = false;
                } else {
                    Expect.ok(delete, where + " Delete");
                    Await.state(client, id, SPECULATIVE);
                }
            }
        }
    }

    private static void assertBindingCleared(Machine m, String where) {
        assertThat(m.getState()).as(where).isEqualTo(IDLE);
        assertThat(m.getCluster()).as(where + ": cluster " + States.describe(m)).isEmpty();
        assertThat(m.getShardMetadataMap()).as(where + ": shard_metadata").isEmpty();
        assertThat(m.getLastError()).as(where + ": last_error").isEmpty();
    }

    @Test
    @DisplayName("B103 while Configure runs the only transitional state seen is CONFIGURING; it settles CONFIGURED")
    void configureTransitionalState() {
        String id = Steps.idleMachine(client);
        TransitionAck ack = Expect.ok(client.tryConfigure(Requests.configure(id, "b103")), "Configure");
        Trace trace = new Trace().add(ack.getMachine());
        Machine settled = Await.follow(client, id, trace);
        assertThat(trace.transitionalSeen())
                .as("transitional states seen, trace " + trace)
                .containsOnly(CONFIGURING);
        assertThat(settled.getState()).as("trace " + trace).isEqualTo(CONFIGURED);
    }

    @Test
    @DisplayName("B104 while Drain runs the only transitional state seen is DRAINING; it settles IDLE")
    void drainTransitionalState() {
        String id = Steps.configuredMachine(client, "b104", Map.of());
        TransitionAck ack = Expect.ok(client.tryDrain(Requests.drain(id)), "Drain");
        Trace trace = new Trace().add(ack.getMachine());
        Machine settled = Await.follow(client, id, trace);
        assertThat(trace.transitionalSeen())
                .as("transitional states seen, trace " + trace)
                .containsOnly(DRAINING);
        assertThat(settled.getState()).as("trace " + trace).isEqualTo(IDLE);
    }

    /** The de-duplicated state pairs a Create, Configure, Drain walk may show (polls may miss a transitional state). */
    private static final Set<List<MachineState>> LEGAL_STEPS = Set.of(
            List.of(SPECULATIVE, CREATING),
            List.of(SPECULATIVE, IDLE),
            List.of(CREATING, IDLE),
            List.of(IDLE, CONFIGURING),
            List.of(IDLE, CONFIGURED),
            List.of(CONFIGURING, CONFIGURED),
            List.of(CONFIGURED, DRAINING),
            List.of(CONFIGURED, IDLE),
            List.of(DRAINING, IDLE));

    @Test
    @DisplayName(
            "B105 the state trace of Create, Configure, Drain moves only along legal edges and skips no stable state")
    void traceFollowsLegalEdges() {
        String id = freshMachine();
        Trace trace = new Trace().add(client.get(id));
        trace.add(Expect.ok(client.tryCreate(Requests.create(id)), "Create").getMachine());
        Await.follow(client, id, trace);
        trace.add(Expect.ok(client.tryConfigure(Requests.configure(id, "b105")), "Configure")
                .getMachine());
        Await.follow(client, id, trace);
        trace.add(Expect.ok(client.tryDrain(Requests.drain(id)), "Drain").getMachine());
        Await.follow(client, id, trace);

        List<MachineState> states = trace.states();
        for (int i = 1; i < states.size(); i++) {
            assertThat(LEGAL_STEPS)
                    .as("step %s -> %s in trace %s", states.get(i - 1), states.get(i), states)
                    .contains(List.of(states.get(i - 1), states.get(i)));
        }
        List<MachineState> stable = states.stream().filter(States::isSettled).toList();
        assertThat(stable).as("stable states in trace " + states).containsExactly(SPECULATIVE, IDLE, CONFIGURED, IDLE);
    }

    @Test
    @DisplayName("B106 cluster is set in CONFIGURING and CONFIGURED and empty after the Drain settles")
    void clusterFollowsBinding() {
        String id = Steps.idleMachine(client);
        TransitionAck ack = Expect.ok(client.tryConfigure(Requests.configure(id, "b106-cluster")), "Configure");
        Trace configure = new Trace().add(ack.getMachine());
        Await.follow(client, id, configure);
        for (Machine m : configure.observed()) {
            if (m.getState() == CONFIGURING || m.getState() == CONFIGURED) {
                assertThat(m.getCluster())
                        .as("cluster in " + States.describe(m))
                        .isEqualTo("b106-cluster");
            }
        }
        assertThat(configure.last().getState()).isEqualTo(CONFIGURED);

        TransitionAck drainAck = Expect.ok(client.tryDrain(Requests.drain(id)), "Drain");
        Trace drain = new Trace().add(drainAck.getMachine());
        Machine idle = Await.follow(client, id, drain);
        for (Machine m : drain.observed()) {
            if (m.getState() == DRAINING) {
                // wire contract: cluster set for CONFIGURING/CONFIGURED/DRAINING
                assertThat(m.getCluster())
                        .as("cluster while draining " + States.describe(m))
                        .isEqualTo("b106-cluster");
            }
        }
        assertThat(idle.getState()).isEqualTo(IDLE);
        assertThat(idle.getCluster()).as("cluster after Drain settled").isEmpty();
    }

    @Test
    @DisplayName(
            "B107 at rest host is empty for SPECULATIVE and set for IDLE/CONFIGURED; a settled Get never shows a transitional state")
    void hostAtRest() {
        String id = freshMachine();
        assertRest(id, SPECULATIVE);
        Steps.create(client, id);
        assertRest(id, IDLE);
        Steps.configure(client, id, "b107", Map.of());
        assertRest(id, CONFIGURED);
        Steps.drain(client, id);
        assertRest(id, IDLE);
    }

    private void assertRest(String id, MachineState expected) {
        for (int i = 0; i < 5; i++) {
            Machine m = client.get(id);
            assertThat(m.getState())
                    .as("settled Get #" + i + ": " + States.describe(m))
                    .isEqualTo(expected);
            if (expected == SPECULATIVE) {
                assertThat(States.hostEmpty(m))
                        .as("host empty for SPECULATIVE: " + States.describe(m))
                        .isTrue();
            } else {
                assertThat(States.hostSet(m))
                        .as("host set for " + expected + ": " + States.describe(m))
                        .isTrue();
            }
            Await.sleep(Await.POLL_MILLIS);
        }
    }

    @Test
    @DisplayName("B108 after a transition settles, the machine never re-enters a transitional state on its own")
    void noSpontaneousTransition() {
        String id = freshMachine();
        Steps.create(client, id);
        assertSteady(id, IDLE);
        Steps.configure(client, id, "b108", Map.of("k", "v"));
        assertSteady(id, CONFIGURED);
        Steps.drain(client, id);
        assertSteady(id, IDLE);
    }

    private void assertSteady(String id, MachineState expected) {
        // over a second: several reconcile ticks of any sanely configured test server
        Trace watched = Await.watch(client, id, Duration.ofMillis(1200));
        assertThat(watched.states()).as("states while idle-polling " + id).containsExactly(expected);
    }

    @Test
    @DisplayName("B109 while Delete runs the only transitional state seen is DELETING; it settles SPECULATIVE")
    void deleteTransitionalState() {
        String id = Steps.idleMachine(client);
        Outcome<TransitionAck> delete = client.tryDelete(Requests.delete(id));
        assumeFalse(
                delete.code() == Status.Code.UNIMPLEMENTED, "provider does not claim the cloud profile (no Delete)");
        Trace trace = new Trace().add(Expect.ok(delete, "Delete").getMachine());
        Machine settled = Await.follow(client, id, trace);
        assertThat(trace.transitionalSeen())
                .as("transitional states seen, trace " + trace)
                .isSubsetOf(EnumSet.of(DELETING))
                .contains(DELETING);
        assertThat(settled.getState()).as("trace " + trace).isEqualTo(SPECULATIVE);
    }
}
