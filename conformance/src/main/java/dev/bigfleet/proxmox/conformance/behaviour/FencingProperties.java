package dev.bigfleet.proxmox.conformance.behaviour;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.MachinePool;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.support.RequiresCoreTarget;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.Token;
import dev.bigfleet.proxmox.conformance.support.Transition;
import dev.bigfleet.proxmox.conformance.target.Profile;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Fencing properties B1201 and B1204: the provider's fence must agree with a running-maximum
 * oracle per (shard, machine), whatever the operation kind and whatever the operation's own fate,
 * with tokens compared as signed numbers (negative epochs and sequences included).
 * Seeds are jqwik's (printed on failure, replayed first on the next run).
 */
@AddLifecycleHook(RequiresCoreTarget.class)
class FencingProperties {

    /** One mutation of a generated stream: who sends it, to which machine, with which token. */
    record Step(int shard, int machine, long epoch, long sequence, Transition kind) {}

    /**
     * An epoch or sequence around the mark: mostly small numbers of either sign (tokens are signed
     * and compare as numbers), now and then an extreme.
     */
    private static Arbitrary<Long> tokenPart(long low, long high) {
        return Arbitraries.frequencyOf(
                Tuple.of(20, Arbitraries.longs().between(low, high)),
                Tuple.of(1, Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE)));
    }

    @Provide
    Arbitrary<List<Step>> singleShardStream() {
        return Combinators.combine(tokenPart(-2, 3), tokenPart(-3, 4), Arbitraries.of(Transition.class))
                .as((e, s, k) -> new Step(0, 0, e, s, k))
                .list()
                .ofMinSize(5)
                .ofMaxSize(30);
    }

    @Property(tries = 25)
    @Label("B1201 for seeded random token streams, acceptance always equals the running-maximum oracle")
    void singleShardMatchesOracle(@ForAll("singleShardStream") List<Step> stream) {
        runAgainstOracle(stream, 1, 1);
    }

    @Provide
    Arbitrary<List<Step>> multiShardStream() {
        return Combinators.combine(
                        Arbitraries.integers().between(0, 2),
                        Arbitraries.integers().between(0, 1),
                        tokenPart(-1, 2),
                        tokenPart(-2, 3),
                        Arbitraries.of(Transition.class))
                .as(Step::new)
                .list()
                .ofMinSize(8)
                .ofMaxSize(40);
    }

    @Property(tries = 25)
    @Label(
            "B1204 for random fenced mutations from several shards on shared machines, FAILED_PRECONDITION appears only for fencing")
    void multiShardFailedPreconditionOnlyForFencing(@ForAll("multiShardStream") List<Step> stream) {
        runAgainstOracle(stream, 3, 2);
    }

    /**
     * Sends the stream to fresh machines from fresh shards. The oracle: a token is fenced iff its
     * (shard, machine) has a mark and the token is not strictly newer; a passing token becomes the
     * mark whatever the operation's outcome. FAILED_PRECONDITION must appear exactly when fenced.
     */
    private static void runAgainstOracle(List<Step> stream, int shardCount, int machineCount) {
        ProviderClient client = ProviderClient.of(Profile.CORE);
        List<Shard> shards = new ArrayList<>();
        for (int i = 0; i < shardCount; i++) {
            shards.add(Shard.fresh());
        }
        List<String> machines = MachinePool.claimSpeculative(client, machineCount);
        Map<String, Token> marks = new HashMap<>();
        List<String> wrong = new ArrayList<>();
        try {
            for (int i = 0; i < stream.size(); i++) {
                Step step = stream.get(i);
                String machine = machines.get(step.machine());
                Token token = shards.get(step.shard()).at(step.epoch(), step.sequence());
                String key = step.shard() + "|" + step.machine();
                Token mark = marks.get(key);
                boolean fenced = mark != null && !token.newerThan(mark);
                Outcome<TransitionAck> outcome = step.kind().send(client, machine, token);
                if (outcome.fenced() != fenced) {
                    wrong.add("#" + i + " " + step.kind() + " shard" + step.shard() + " machine" + step.machine()
                            + " (" + step.epoch() + "," + step.sequence() + ") mark "
                            + (mark == null ? "none" : "(" + mark.epoch() + "," + mark.sequence() + ")")
                            + ": expected " + (fenced ? "FAILED_PRECONDITION" : "not fenced") + ", got " + outcome);
                }
                if (!fenced) {
                    marks.put(key, token);
                }
            }
        } finally {
            for (String machine : machines) {
                Await.settled(client, machine);
            }
        }
        assertThat(wrong).as("calls whose fencing disagreed with the oracle").isEmpty();
    }
}
