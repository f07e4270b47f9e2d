package dev.bigfleet.proxmox.conformance.behaviour;

import static dev.bigfleet.proxmox.conformance.support.States.CONFIGURED;
import static dev.bigfleet.proxmox.conformance.support.States.IDLE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.conformance.support.Await;
import dev.bigfleet.proxmox.conformance.support.CoreConformance;
import dev.bigfleet.proxmox.conformance.support.Expect;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Token;
import dev.bigfleet.proxmox.conformance.support.Transition;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Fencing behaviours B301–B312. Every test uses its own UUID shard so marks never leak between
 * tests; Create on an already-created machine is the usual probe, because it passes the fence as
 * an idempotent OK and so "fenced" and "passed" are told apart by the code alone.
 */
class FencingTest extends CoreConformance {

    @Test
    @DisplayName(
            "B301 a stale token aimed at a machine that does not exist is FAILED_PRECONDITION (fence before not-found)")
    void fenceBeforeNotFound() {
        String unknown = "conformance-unknown-" + UUID.randomUUID();
        Shard shard = Shard.fresh();
        Expect.code(
                client.tryCreate(Requests.create(unknown, shard.at(3, 7))),
                "first contact on unknown id",
                Status.Code.NOT_FOUND);
        Expect.fenced(client.tryCreate(Requests.create(unknown, shard.at(3, 7))), "replay on unknown id");
        Expect.fenced(
                client.tryConfigure(Requests.configure(unknown, "b301", Map.of(), shard.at(3, 6))),
                "older on unknown id");
        Expect.fenced(client.tryDrain(Requests.drain(unknown, shard.at(2, 100))), "older epoch on unknown id");
        Expect.code(
                client.tryCreate(Requests.create(unknown, shard.at(3, 8))),
                "newer on unknown id",
                Status.Code.NOT_FOUND);
    }

    @Test
    @DisplayName(
            "B302 marks are per (shard_id, machine_id): other shards and other machines are not fenced, own stale token is")
    void marksArePerShardAndMachine() {
        List<String> ids = List.of(freshMachine(), freshMachine());
        String m1 = ids.get(0);
        String m2 = ids.get(1);
        Shard a = Shard.fresh();
        Shard b = Shard.fresh();
        Expect.ok(client.tryCreate(Requests.create(m1, a.at(10, 10))), "shard A high token on m1");
        Expect.notFenced(client.tryCreate(Requests.create(m1, b.at(1, 1))), "shard B low token on m1");
        Expect.ok(client.tryCreate(Requests.create(m2, a.at(1, 1))), "shard A low token on m2");
        Expect.fenced(client.tryCreate(Requests.create(m1, a.at(5, 5))), "shard A stale token on m1");
        Expect.fenced(client.tryCreate(Requests.create(m2, a.at(1, 1))), "shard A replay on m2");
        Expect.notFenced(client.tryCreate(Requests.create(m2, b.at(0, 1))), "shard B first token on m2");
        Await.state(client, m1, IDLE);
        Await.state(client, m2, IDLE);
    }

    @Test
    @DisplayName(
            "B303 on one shard and machine, not-strictly-newer tokens are fenced and newer ones advance the mark lexicographically")
    void lexicographicOrder() {
        String id = freshMachine();
        Shard shard = Shard.fresh();
        record Probe(long epoch, long seq, boolean passes) {}
        List<Probe> probes = List.of(
                new Probe(5, 5, true), // first contact
                new Probe(5, 5, false), // equal
                new Probe(5, 4, false), // same epoch, lower sequence
                new Probe(4, 100, false), // lower epoch, higher sequence
                new Probe(5, 6, true), // same epoch, higher sequence
                new Probe(6, 0, true), // higher epoch, low sequence advances
                new Probe(6, 0, false),
                new Probe(5, 100, false), // old epoch is over
                new Probe(6, 1, true),
                new Probe(9, 0, true),
                new Probe(8, 999, false));
        List<String> wrong = new ArrayList<>();
        for (Probe p : probes) {
            Outcome<TransitionAck> outcome = client.tryCreate(Requests.create(id, shard.at(p.epoch, p.seq)));
            if (p.passes ? !outcome.ok() : !outcome.fenced()) {
                wrong.add("(" + p.epoch + "," + p.seq + ") expected " + (p.passes ? "OK" : "FAILED_PRECONDITION")
                        + " got " + outcome);
            }
        }
        Await.state(client, id, IDLE);
        assertThat(wrong).as("tokens handled against the lexicographic mark").isEmpty();
    }

    @Test
    @DisplayName("B305 Get and List keep working through a series of fenced-out mutations")
    void readsThroughFencing() {
        String id = Steps.idleMachine(client);
        Shard shard = Shard.fresh();
        Expect.ok(client.tryCreate(Requests.create(id, shard.at(100, 100))), "set a high mark");
        for (int i = 0; i < 5; i++) {
            for (Transition kind : Transition.values()) {
                Expect.fenced(kind.send(client, id, shard.at(1, i)), kind + " with a stale token #" + i);
                Machine got = client.get(id);
                assertThat(got.getState()).as("Get during fencing").isEqualTo(IDLE);
                assertThat(client.findInList(id, IDLE))
                        .as("List(IDLE) during fencing")
                        .isPresent();
            }
        }
        assertThat(client.listAll().getMachinesList())
                .extracting(Machine::getId)
                .contains(id);
    }

    @Test
    @DisplayName("B306 a stale-token replay of an applied Configure is FAILED_PRECONDITION, not an idempotent OK")
    void configureReplayIsFenced() {
        String id = Steps.idleMachine(client);
        Shard shard = Shard.fresh();
        ConfigureRequest configure = Requests.configure(id, "b306", Map.of("k", "v"), shard.at(1, 1));
        String op = Expect.ok(client.tryConfigure(configure), "Configure").getOperationId();
        Await.state(client, id, CONFIGURED);
        Outcome<TransitionAck> replay = client.tryConfigure(configure);
        Expect.fenced(replay, "replay of the applied Configure (first op " + op + ")");
        assertThat(client.get(id).getState()).isEqualTo(CONFIGURED);
    }

    @Test
    @DisplayName("B307 a stale-token replay of an applied Drain is FAILED_PRECONDITION, not an idempotent OK")
    void drainReplayIsFenced() {
        String id = Steps.configuredMachine(client, "b307", Map.of());
        Shard shard = Shard.fresh();
        DrainRequest drain = Requests.drain(id, shard.at(1, 1));
        Expect.ok(client.tryDrain(drain), "Drain");
        Await.state(client, id, IDLE);
        Expect.fenced(client.tryDrain(drain), "replay of the applied Drain");
        assertThat(client.get(id).getState()).isEqualTo(IDLE);
    }

    @Test
    @DisplayName("B308 two all-zero-token Creates are both accepted (no token = no fencing)")
    void zeroTokenBypasses() {
        String id = freshMachine();
        // a real mark on this machine must not matter to token-less calls either
        Expect.ok(client.tryCreate(Requests.create(id, Shard.fresh().at(50, 50))), "Create with a token");
        Expect.ok(client.tryCreate(Requests.create(id, Token.NONE)), "first all-zero Create");
        Expect.ok(client.tryCreate(Requests.create(id, Token.NONE)), "second all-zero Create");
        Await.state(client, id, IDLE);
        Expect.ok(client.tryCreate(Requests.create(id, Token.NONE)), "third all-zero Create after IDLE");
    }

    @Test
    @DisplayName("B309 a session's increasing tokens are accepted across Create, Configure, Drain on one machine")
    void increasingSession() {
        String id = freshMachine();
        Shard shard = Shard.fresh();
        Expect.ok(client.tryCreate(Requests.create(id, shard.at(1, 1))), "Create (1,1)");
        Await.state(client, id, IDLE);
        Expect.ok(client.tryConfigure(Requests.configure(id, "b309", Map.of(), shard.at(1, 2))), "Configure (1,2)");
        Await.state(client, id, CONFIGURED);
        Expect.ok(client.tryDrain(Requests.drain(id, shard.at(1, 3))), "Drain (1,3)");
        Await.state(client, id, IDLE);
        Expect.ok(client.tryConfigure(Requests.configure(id, "b309", Map.of(), shard.at(1, 4))), "Configure (1,4)");
        Await.state(client, id, CONFIGURED);
    }

    @Test
    @DisplayName("B310 after a new epoch a pre-restart token is fenced while the new-epoch token is accepted")
    void newEpochFencesOldSession() {
        String id = freshMachine();
        Shard shard = Shard.fresh();
        Expect.ok(client.tryCreate(Requests.create(id, shard.at(1, 1))), "Create (1,1)");
        Await.state(client, id, IDLE);
        Expect.ok(client.tryConfigure(Requests.configure(id, "b310", Map.of(), shard.at(1, 2))), "Configure (1,2)");
        Await.state(client, id, CONFIGURED);
        // the shard restarts: epoch 2, sequence starts again
        Expect.ok(client.tryDrain(Requests.drain(id, shard.at(2, 1))), "Drain (2,1)");
        Await.state(client, id, IDLE);
        Expect.fenced(
                client.tryConfigure(Requests.configure(id, "b310", Map.of(), shard.at(1, 3))),
                "pre-restart Configure (1,3)");
        Expect.fenced(
                client.tryConfigure(Requests.configure(id, "b310", Map.of(), shard.at(1, 1000))),
                "pre-restart Configure (1,1000)");
        assertThat(client.get(id).getState()).isEqualTo(IDLE);
        Expect.ok(client.tryConfigure(Requests.configure(id, "b310", Map.of(), shard.at(2, 2))), "Configure (2,2)");
        Await.state(client, id, CONFIGURED);
    }

    @Test
    @DisplayName(
            "B311 a passing token whose operation fails (out of position) still advances the mark, so its replay is fenced")
    void failedOperationAdvancesMark() {
        String id = Steps.idleMachine(client);
        Shard shard = Shard.fresh();
        Token token = shard.at(1, 1);
        Expect.rejected(client.tryDrain(Requests.drain(id, token)), "Drain on IDLE (out of position)");
        Expect.fenced(client.tryDrain(Requests.drain(id, token)), "replay of the out-of-position Drain");
        Expect.fenced(
                client.tryConfigure(Requests.configure(id, "b311", Map.of(), token)), "Configure with the same token");
        assertThat(client.get(id).getState()).isEqualTo(IDLE);
        Expect.ok(client.tryConfigure(Requests.configure(id, "b311", Map.of(), shard.at(1, 2))), "Configure (1,2)");
        Await.state(client, id, CONFIGURED);
    }

    @Test
    @DisplayName(
            "B312 for a random stream of tokens on one shard, acceptance equals strictly-greater-than-the-running-maximum")
    void randomStreamMatchesRunningMax() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        String id = Steps.idleMachine(client);
        Shard shard = Shard.fresh();
        Token max = null;
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            Token token = shard.at(random.nextInt(6), random.nextInt(6));
            boolean shouldPass = max == null || token.newerThan(max);
            Outcome<TransitionAck> outcome = client.tryCreate(Requests.create(id, token));
            if (shouldPass != !outcome.fenced()) {
                wrong.add("#" + i + " " + token + " mark " + max + " -> " + outcome);
            }
            if (shouldPass) {
                max = token;
            }
        }
        assertThat(wrong)
                .as("tokens whose fate differed from the running-maximum oracle (seed " + seed + ")")
                .isEmpty();
        assertThat(client.get(id).getState()).isEqualTo(IDLE);
    }
}
