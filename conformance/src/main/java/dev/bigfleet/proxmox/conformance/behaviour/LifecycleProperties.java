package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.SPECULATIVE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.MachinePool;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.support.RequiresCoreTarget;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Token;
import dev.bigfleet.proxmox.conformance.support.Transition;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Lifecycle property B1203: a random sequence of mutations on one machine, checked against the
 * four-edge model after every step.
 */
@AddLifecycleHook(RequiresCoreTarget.class)
class LifecycleProperties {

    @Provide
    Arbitrary<List<Transition>> operations() {
        return Arbitraries.of(Transition.class).list().ofMinSize(1).ofMaxSize(8);
    }

    /**
     * From the machine's current state an operation is legal (source state: must be accepted with
     * a transitional ack and settle at its target), a repeat toward the current state (target
     * state: a no-op OK or a rejection, never a transition), or illegal (rejected). Anything that
     * is not accepted must leave the snapshot untouched.
     */
    @Property(tries = 25)
    @Label(
            "B1203 for seeded random lifecycle sequences, legal edges succeed, illegal ones are rejected, nothing transitions partially")
    void randomSequencesFollowTheModel(@ForAll("operations") List<Transition> operations) {
        ProviderClient client = ProviderClient.of(Profile.CORE);
        String id = MachinePool.claimSpeculative(client);
        MachineState model = SPECULATIVE;
        try {
            for (int i = 0; i < operations.size(); i++) {
                Transition op = operations.get(i);
                String step = "step " + i + " " + op + " from " + model + " in " + operations;
                Machine before = client.get(id);
                assertThat(before.getState()).as(step + ": state before").isEqualTo(model);
                Outcome<TransitionAck> outcome = op.send(client, id, Token.NONE);
                assertThat(outcome.fenced())
                        .as(step + ": FAILED_PRECONDITION without a token: " + outcome)
                        .isFalse();
                if (model == op.from()) {
                    if (op == Transition.DELETE && outcome.code() == Status.Code.UNIMPLEMENTED) {
                        assertUnchanged(client, id, before, step);
                        continue;
                    }
                    assertThat(outcome.ok())
                            .as(step + ": legal edge refused: " + outcome)
                            .isTrue();
                    assertThat(outcome.response().getMachine().getState())
                            .as(step + ": ack state")
                            .isEqualTo(op.transitional());
                    Machine settled = Await.settled(client, id);
                    assertThat(settled.getState())
                            .as(step + ": settled " + States.describe(settled))
                            .isEqualTo(op.to());
                    model = op.to();
                    assertInvariants(settled, step);
                } else {
                    if (outcome.ok()) {
                        assertThat(model)
                                .as(step + ": accepted although illegal: " + outcome)
                                .isEqualTo(op.to());
                        assertThat(outcome.response().getMachine().getState())
                                .as(step + ": no-op ack state")
                                .isEqualTo(model);
                    }
                    assertUnchanged(client, id, before, step);
                }
            }
        } finally {
            Await.settled(client, id);
        }
    }

    private static void assertUnchanged(ProviderClient client, String id, Machine before, String step) {
        Machine after = client.get(id);
        assertThat(after.getState()).as(step + ": state after refusal/no-op").isEqualTo(before.getState());
        assertThat(after.getCluster()).as(step + ": cluster").isEqualTo(before.getCluster());
        assertThat(after.getShardMetadataMap()).as(step + ": shard_metadata").isEqualTo(before.getShardMetadataMap());
        assertThat(after.getHost()).as(step + ": host").isEqualTo(before.getHost());
        assertThat(after.getLastError()).as(step + ": last_error").isEqualTo(before.getLastError());
    }

    private static void assertInvariants(Machine m, String step) {
        String where = step + ": " + States.describe(m);
        if (m.getState() == SPECULATIVE) {
            assertThat(States.hostEmpty(m)).as(where + " host empty").isTrue();
        } else {
            assertThat(States.hostSet(m)).as(where + " host set").isTrue();
        }
        if (m.getState() == CONFIGURED) {
            assertThat(m.getCluster()).as(where).isEqualTo(Transition.DEFAULT_CLUSTER);
        } else {
            assertThat(m.getCluster()).as(where + " cluster").isEmpty();
            assertThat(m.getShardMetadataMap()).as(where + " shard_metadata").isEmpty();
        }
        assertThat(m.getLastError()).as(where + " last_error").isEmpty();
    }
}
