package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURING;
import static dev.bigfleet.proxmox.conformance.support.States.CREATING;
import static dev.bigfleet.proxmox.conformance.support.States.DRAINING;
import static dev.bigfleet.proxmox.conformance.support.States.FAILED;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.FaultConformance;
import dev.bigfleet.proxmox.conformance.support.FaultSelectors;
import dev.bigfleet.proxmox.conformance.support.MachinePool;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Token;
import dev.bigfleet.proxmox.conformance.support.Trace;
import dev.bigfleet.proxmox.conformance.support.Transition;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Timeout and failure behaviours B701–B708 (fault profile). The fault server picks the failure
 * from the request (cluster_id selectors, a labelled slot), and runs with a short transition
 * timeout, so a timed-out transition fails within seconds.
 */
class TimeoutAndFailureTest extends FaultConformance {
    private static final Map<String, String> METADATA = Map.of("fault", "test");

    /** Sends a Configure with a fault selector to a fresh IDLE machine and follows it to rest. */
    private Trace configureWithSelector(String id, String selector) {
        TransitionAck ack =
                Expect.ok(client.tryConfigure(Requests.configure(id, selector, METADATA)), "Configure " + selector);
        Trace trace = new Trace().add(ack.getMachine());
        Await.follow(client, id, trace);
        return trace;
    }

    /** A FAILED machine: a fresh IDLE machine whose Configure fails. */
    private Machine failedMachine() {
        String id = Steps.idleMachine(client);
        Trace trace = configureWithSelector(id, FaultSelectors.CONFIGURE_ERROR);
        assertThat(trace.last().getState())
                .as("Configure " + FaultSelectors.CONFIGURE_ERROR + ", trace " + trace)
                .isEqualTo(FAILED);
        return trace.last();
    }

    private void assertOnly(Trace trace, MachineState transitional, MachineState end) {
        assertThat(trace.transitionalSeen())
                .as("transitional states, trace " + trace)
                .containsOnly(transitional);
        assertThat(trace.states()).as("trace").containsExactly(transitional, end);
    }

    @Test
    @DisplayName(
            "B701 a Configure whose actuator errors ends FAILED with a non-empty last_error, never lingering CONFIGURING")
    void configureErrorFails() {
        String id = Steps.idleMachine(client);
        Trace trace = configureWithSelector(id, FaultSelectors.CONFIGURE_ERROR);
        assertOnly(trace, CONFIGURING, FAILED);
        assertThat(trace.last().getLastError()).as("last_error").isNotBlank();
        assertThat(Await.watch(client, id, Duration.ofMillis(500)).states()).containsExactly(FAILED);
    }

    @Test
    @DisplayName("B702 a Create whose actuator errors ends FAILED with a non-empty last_error")
    void createErrorFails() {
        String id = MachinePool.claimFaultCreate(client);
        TransitionAck ack = Expect.ok(client.tryCreate(Requests.create(id)), "Create of a failing slot");
        Trace trace = new Trace().add(ack.getMachine());
        Machine end = Await.follow(client, id, trace);
        assertOnly(trace, CREATING, FAILED);
        assertThat(end.getLastError()).as("last_error").isNotBlank();
    }

    @Test
    @DisplayName(
            "B703 a transition past its timeout ends FAILED with a timeout-shaped last_error, never silently reverting")
    void timeoutFails() {
        String id = Steps.idleMachine(client);
        Trace trace = configureWithSelector(id, FaultSelectors.CONFIGURE_TIMEOUT);
        assertOnly(trace, CONFIGURING, FAILED);
        assertThat(trace.last().getLastError()).as("last_error").containsPattern("(?i)time[ds]?[ -]?out|deadline");
        assertThat(Await.watch(client, id, Duration.ofMillis(500)).states())
                .as("after the timeout")
                .containsExactly(FAILED);
    }

    @Test
    @DisplayName("B704 a late success after the transition already failed is discarded: the machine stays FAILED")
    void lateSuccessDiscarded() {
        String id = Steps.idleMachine(client);
        long start = System.nanoTime();
        Trace trace = configureWithSelector(id, FaultSelectors.CONFIGURE_SLOW_OK);
        Duration toFail = Duration.ofNanos(System.nanoTime() - start);
        assertOnly(trace, CONFIGURING, FAILED);
        String lastError = trace.last().getLastError();
        assertThat(lastError).isNotBlank();
        // the late success arrives some time after the timeout: watch well past it
        Duration watch = toFail.plusSeconds(2).compareTo(Duration.ofSeconds(4)) < 0
                ? Duration.ofSeconds(4)
                : toFail.plusSeconds(2);
        for (Machine m : Await.watch(client, id, watch).observed()) {
            assertThat(m.getState())
                    .as("state after the late success: " + States.describe(m))
                    .isEqualTo(FAILED);
            assertThat(m.getLastError()).isEqualTo(lastError);
        }
    }

    @Test
    @DisplayName("B705 a FAILED machine rejects further mutations toward any target and keeps last_error verbatim")
    void failedRejectsEverything() {
        Machine failed = failedMachine();
        String id = failed.getId();
        Shard shard = Shard.fresh();
        long seq = 1;
        for (Transition kind : Transition.values()) {
            Expect.rejected(kind.send(client, id, Token.NONE), kind + " on FAILED (no token)");
            Expect.rejected(kind.send(client, id, shard.at(1, seq++)), kind + " on FAILED (fresh token)");
        }
        Expect.rejected(
                client.tryConfigure(Requests.configure(id, failed.getCluster(), METADATA)),
                "Configure retry with the failed request's own cluster");
        Machine after = client.get(id);
        assertThat(after.getState()).isEqualTo(FAILED);
        assertThat(after.getLastError()).as("last_error kept verbatim").isEqualTo(failed.getLastError());
    }

    @Test
    @DisplayName(
            "B706 a Drain with grace 0 against a failing actuator ends IDLE or FAILED with last_error, never stuck DRAINING")
    void failingDrainNotStuck() {
        String id = Steps.idleMachine(client);
        Steps.configure(client, id, FaultSelectors.DRAIN_ERROR, METADATA);
        TransitionAck ack = Expect.ok(client.tryDrain(Requests.drain(id, 0, Token.NONE)), "Drain");
        Trace trace = new Trace().add(ack.getMachine());
        Machine end = Await.follow(client, id, trace);
        assertThat(trace.transitionalSeen()).as("trace " + trace).containsOnly(DRAINING);
        assertThat(end.getState()).as(States.describe(end)).isIn(IDLE, FAILED);
        if (end.getState() == FAILED) {
            assertThat(end.getLastError()).as("last_error").isNotBlank();
        } else {
            assertThat(end.getCluster()).as("cluster after a completed Drain").isEmpty();
        }
        assertThat(Await.watch(client, id, Duration.ofMillis(500)).states()).containsExactly(end.getState());
    }

    @Test
    @DisplayName("B707 a FAILED machine still answers Get and List with FAILED and the same last_error every time")
    void failedStillReadable() {
        Machine failed = failedMachine();
        String id = failed.getId();
        for (int i = 0; i < 5; i++) {
            Machine got = client.get(id);
            assertThat(got.getState()).as("Get #" + i).isEqualTo(FAILED);
            assertThat(got.getLastError()).as("Get #" + i).isEqualTo(failed.getLastError());
            for (Machine listed : List.of(
                    client.findInList(id, FAILED)
                            .orElseThrow(() -> new AssertionError(id + " missing from List(FAILED)")),
                    client.findInList(id).orElseThrow(() -> new AssertionError(id + " missing from List()")))) {
                assertThat(listed.getState()).as("List #" + i).isEqualTo(FAILED);
                assertThat(listed.getLastError()).as("List #" + i).isEqualTo(failed.getLastError());
            }
        }
    }

    @Test
    @DisplayName(
            "B708 a machine is not CONFIGURED until its node is ready: CONFIGURING meanwhile, FAILED if readiness never comes")
    void readinessGate() {
        String id = Steps.idleMachine(client);
        Trace trace = configureWithSelector(id, FaultSelectors.READINESS_BLOCK);
        assertThat(trace.states()).as("never CONFIGURED without readiness").doesNotContain(CONFIGURED);
        assertOnly(trace, CONFIGURING, FAILED);
        assertThat(trace.last().getLastError()).as("last_error").isNotBlank();
        assertThat(Await.watch(client, id, Duration.ofMillis(500)).states()).containsExactly(FAILED);
    }
}
