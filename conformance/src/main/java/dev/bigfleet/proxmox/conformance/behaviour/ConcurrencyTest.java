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
import dev.bigfleet.proxmox.conformance.support.MachinePool;
import dev.bigfleet.proxmox.conformance.support.Metadata;
import dev.bigfleet.proxmox.conformance.support.Outcome;
import dev.bigfleet.proxmox.conformance.support.Parallel;
import dev.bigfleet.proxmox.conformance.support.ProviderClient;
import dev.bigfleet.proxmox.conformance.support.Requests;
import dev.bigfleet.proxmox.conformance.support.Shard;
import dev.bigfleet.proxmox.conformance.support.States;
import dev.bigfleet.proxmox.conformance.support.Steps;
import dev.bigfleet.proxmox.conformance.support.Trace;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Concurrency and idempotency behaviours B401–B409: racing identical and conflicting requests. */
class ConcurrencyTest extends CoreConformance {
    private static final int N = 8;

    /**
     * Sends the same request from N threads at once; all must succeed with one operation id and an
     * ack in the transitional or target state. Then follows the machine to rest: after the acks it
     * may show the transitional state once and then the target, and must stay there.
     */
    private Machine burst(
            String id, Supplier<Outcome<TransitionAck>> call, MachineState transitional, MachineState target) {
        List<Outcome<TransitionAck>> outcomes = Parallel.run(N, i -> call.get());
        for (Outcome<TransitionAck> o : outcomes) {
            MachineState acked = Expect.ok(o, "one of " + N + " identical parallel calls")
                    .getMachine()
                    .getState();
            assertThat(acked).as("ack state").isIn(transitional, target);
        }
        Set<String> ops =
                outcomes.stream().map(o -> o.response().getOperationId()).collect(Collectors.toSet());
        assertThat(ops)
                .as("operation ids of " + N + " identical parallel calls")
                .hasSize(1)
                .doesNotContain("");
        // acks may arrive out of order, so "once" is judged on the polls that follow them
        Trace trace = new Trace();
        Machine settled = Await.follow(client, id, trace);
        for (Machine m : Await.watch(client, id, Duration.ofMillis(500)).observed()) {
            trace.add(m);
        }
        assertThat(settled.getState()).as("settled state, trace " + trace).isEqualTo(target);
        assertThat(trace.states()).as("states after the burst").isIn(List.of(target), List.of(transitional, target));
        return settled;
    }

    @Test
    @DisplayName(
            "B401 N parallel identical Creates on one SPECULATIVE machine return one operation_id; it reaches IDLE once")
    void parallelCreates() {
        String id = freshMachine();
        burst(id, () -> client.tryCreate(Requests.create(id)), CREATING, IDLE);
    }

    @Test
    @DisplayName(
            "B402 N parallel identical Configures (same cluster and metadata) return one operation_id; CONFIGURED once")
    void parallelConfigures() {
        String id = Steps.idleMachine(client);
        Map<String, String> metadata = Map.of("team", "b402", "empty", "");
        Machine m =
                burst(id, () -> client.tryConfigure(Requests.configure(id, "b402", metadata)), CONFIGURING, CONFIGURED);
        assertThat(m.getCluster()).isEqualTo("b402");
        Metadata.assertVerbatim(metadata, m.getShardMetadataMap(), "CONFIGURED after the burst");
    }

    @Test
    @DisplayName("B403 N parallel identical Drains return one operation_id; IDLE once with the binding cleared")
    void parallelDrains() {
        String id = Steps.configuredMachine(client, "b403", Map.of("k", "v"));
        Machine m = burst(id, () -> client.tryDrain(Requests.drain(id)), DRAINING, IDLE);
        assertThat(m.getCluster()).as("cluster").isEmpty();
        assertThat(m.getShardMetadataMap()).as("shard_metadata").isEmpty();
    }

    @Test
    @DisplayName(
            "B404 two racing conflicting mutations: at most one succeeds and the machine ends in one well-defined stable state")
    void conflictingMutations() {
        for (int round = 0; round < 3; round++) {
            // Configure vs Delete: both legal from IDLE, mutually exclusive
            String id = Steps.idleMachine(client);
            List<Outcome<TransitionAck>> race = Parallel.run(
                    2,
                    i -> i == 0
                            ? client.tryConfigure(Requests.configure(id, "b404-configure"))
                            : client.tryDelete(Requests.delete(id)));
            Machine end = Await.settled(client, id);
            assertRace(race, end, List.of(CONFIGURED, SPECULATIVE), "Configure vs Delete round " + round);
            if (race.get(0).ok()) {
                assertThat(end.getState()).as("Configure won").isEqualTo(CONFIGURED);
                assertThat(end.getCluster()).isEqualTo("b404-configure");
            } else if (race.get(1).ok()) {
                assertThat(end.getState()).as("Delete won").isEqualTo(SPECULATIVE);
                assertThat(end.getCluster()).isEmpty();
            } else {
                assertThat(end.getState()).as("nobody won").isEqualTo(IDLE);
            }

            // Configure to cluster A vs Configure to cluster B
            String other = Steps.idleMachine(client);
            List<Outcome<TransitionAck>> clusters =
                    Parallel.run(2, i -> client.tryConfigure(Requests.configure(other, i == 0 ? "b404-a" : "b404-b")));
            Machine bound = Await.settled(client, other);
            assertRace(clusters, bound, List.of(CONFIGURED), "Configure A vs Configure B round " + round);
            if (clusters.get(0).ok()) {
                assertThat(bound.getCluster()).as("A won").isEqualTo("b404-a");
            } else if (clusters.get(1).ok()) {
                assertThat(bound.getCluster()).as("B won").isEqualTo("b404-b");
            }
        }
    }

    private static void assertRace(
            List<Outcome<TransitionAck>> race, Machine end, List<MachineState> ends, String what) {
        long winners = race.stream().filter(Outcome::ok).count();
        assertThat(winners).as(what + ": successes among " + race).isLessThanOrEqualTo(1);
        for (Outcome<TransitionAck> o : race) {
            if (!o.ok()) {
                Expect.rejected(o, what + " loser");
            }
        }
        if (winners == 1) {
            assertThat(end.getState())
                    .as(what + ": end state " + States.describe(end))
                    .isIn(ends);
        }
    }

    @Test
    @DisplayName(
            "B405 interleaved old-epoch and new-epoch tokens on one machine: the new epoch always wins, the old is always fenced")
    void oldAndNewEpochInterleaved() {
        String id = freshMachine();
        Shard shard = Shard.fresh();
        Expect.ok(client.tryCreate(Requests.create(id, shard.at(1, 1))), "old session Create (1,1)");
        Expect.ok(client.tryCreate(Requests.create(id, shard.at(2, 0))), "new session Create (2,0)");
        int rounds = 25;
        // thread 0 is the new session (its own sequence strictly increasing), thread 1 the stale one
        List<List<Outcome<TransitionAck>>> streams = Parallel.run(2, t -> {
            List<Outcome<TransitionAck>> out = new ArrayList<>();
            for (int k = 1; k <= rounds; k++) {
                out.add(client.tryCreate(Requests.create(id, t == 0 ? shard.at(2, k) : shard.at(1, 1000 + k))));
            }
            return out;
        });
        for (int k = 0; k < rounds; k++) {
            Expect.ok(streams.get(0).get(k), "new-epoch token (2," + (k + 1) + ")");
            Expect.fenced(streams.get(1).get(k), "old-epoch token (1," + (1001 + k) + ")");
        }
        Await.state(client, id, IDLE);
        Expect.ok(
                client.tryConfigure(Requests.configure(id, "b405", Map.of(), shard.at(2, 100))), "new-epoch Configure");
        Expect.fenced(
                client.tryConfigure(Requests.configure(id, "b405", Map.of(), shard.at(1, 5000))),
                "old-epoch Configure");
        Await.state(client, id, CONFIGURED);
    }

    @Test
    @DisplayName("B406 concurrent retries toward one target over distinct connections collapse to one operation_id")
    void retriesOverDistinctConnections() {
        String id = freshMachine();
        List<ManagedChannel> channels = new ArrayList<>();
        try {
            for (int i = 0; i < N; i++) {
                channels.add(ProviderClient.openChannel(client.target()));
            }
            List<Outcome<TransitionAck>> outcomes = Parallel.run(
                    N,
                    i -> ProviderClient.over(client.target(), channels.get(i)).tryCreate(Requests.create(id)));
            Set<String> ops = outcomes.stream()
                    .map(o -> Expect.ok(o, "Create over its own connection").getOperationId())
                    .collect(Collectors.toSet());
            assertThat(ops).as("operation ids across " + N + " connections").hasSize(1);
            Await.state(client, id, IDLE);
        } finally {
            for (ManagedChannel channel : channels) {
                channel.shutdownNow();
                try {
                    channel.awaitTermination(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    @DisplayName(
            "B407 K machines driven to IDLE concurrently each get a distinct operation_id and reach IDLE independently")
    void manyMachinesConcurrently() {
        List<String> ids = MachinePool.claimSpeculative(client, N);
        List<String> ops = Parallel.run(N, i -> {
            String op = Expect.ok(client.tryCreate(Requests.create(ids.get(i))), "Create " + ids.get(i))
                    .getOperationId();
            Await.state(client, ids.get(i), IDLE);
            return op;
        });
        assertThat(ops)
                .as("operation ids of " + N + " machines")
                .doesNotContain("")
                .doesNotHaveDuplicates();
        for (String id : ids) {
            assertThat(client.get(id).getState()).as(id).isEqualTo(IDLE);
        }
    }

    @Test
    @DisplayName(
            "B408 every successful ack in a burst of identical retries shows the same target-bound state (no torn snapshot)")
    void noTornSnapshots() {
        String id = freshMachine();
        List<Outcome<TransitionAck>> creates = Parallel.run(2 * N, i -> client.tryCreate(Requests.create(id)));
        for (Outcome<TransitionAck> o : creates) {
            Machine m = Expect.ok(o, "Create burst").getMachine();
            assertThat(m.getId()).isEqualTo(id);
            assertThat(m.getState()).as("Create ack " + States.describe(m)).isIn(CREATING, IDLE);
            if (m.getState() == IDLE) {
                assertThat(States.hostSet(m))
                        .as("IDLE ack has its host: " + States.describe(m))
                        .isTrue();
            }
        }
        Await.state(client, id, IDLE);

        Map<String, String> metadata = Map.of("b408", "torn?", "nul", "\u0000");
        List<Outcome<TransitionAck>> configures =
                Parallel.run(2 * N, i -> client.tryConfigure(Requests.configure(id, "b408", metadata)));
        for (Outcome<TransitionAck> o : configures) {
            Machine m = Expect.ok(o, "Configure burst").getMachine();
            assertThat(m.getState()).as("Configure ack " + States.describe(m)).isIn(CONFIGURING, CONFIGURED);
            assertThat(m.getCluster()).as("cluster in Configure ack").isEqualTo("b408");
            Metadata.assertVerbatim(metadata, m.getShardMetadataMap(), "Configure ack");
            assertThat(States.hostSet(m)).as("host in Configure ack").isTrue();
        }
        assertThat(configures.stream().map(o -> o.response().getOperationId()).distinct())
                .hasSize(1);
        Await.state(client, id, CONFIGURED);
    }

    @Test
    @DisplayName(
            "B409 N parallel identical Deletes on one IDLE machine return one operation_id; it reaches SPECULATIVE once")
    void parallelDeletes() {
        String id = Steps.idleMachine(client);
        Outcome<TransitionAck> probe = client.tryDelete(Requests.delete("conformance-unknown-" + UUID.randomUUID()));
        assumeFalse(probe.code() == Status.Code.UNIMPLEMENTED, "provider does not claim the cloud profile (no Delete)");
        Machine m = burst(id, () -> client.tryDelete(Requests.delete(id)), DELETING, SPECULATIVE);
        assertThat(States.hostEmpty(m))
                .as("host after Delete: " + States.describe(m))
                .isTrue();
    }
}
