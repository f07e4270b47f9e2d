package dev.bigfleet.proxmox.server.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import dev.bigfleet.proxmox.testing.AcknowledgedChanges;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleCallers;
import dev.bigfleet.proxmox.testing.ProviderReplica;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two replicas on one real PostgreSQL database, 64 callers driving random lifecycle calls at
 * whichever replica leads and recording every acknowledged change. The leader is SIGKILLed at
 * random moments, {@code -Dfailover.cycles} times (10 by default), and brought back as a standby;
 * then it is SIGSTOPped, and woken after its successor took over. After each failover everything
 * acknowledged is still there (see {@link AcknowledgedChanges}); the woken leader accepts no write,
 * and none of what it was sent reached the database. Failover times (leader killed → the other
 * replica's {@code /readyz} 200) go to {@code target/failover-times.txt}. {@code -Dfailover.lease}
 * and {@code -Dfailover.renew} set the lease (default 2s and 500ms; the product's defaults are 6s
 * and 2s).
 */
@Tag("recovery")
class FailoverTest {
    private static final int CALLERS = 64;
    private static final int MACHINES_PER_CALLER = 3;
    private static final int CYCLES = Integer.getInteger("failover.cycles", 10);
    private static final Duration LEASE = GoDuration.parse(System.getProperty("failover.lease", "2s"));
    private static final Duration RENEW = GoDuration.parse(System.getProperty("failover.renew", "500ms"));
    private static final Duration TAKEOVER = Duration.ofSeconds(60);

    private final AcknowledgedChanges changes =
            AcknowledgedChanges.ofReplicas("failover-cluster", Duration.ofSeconds(3));
    private final CapacityProviderBlockingStub[] stubs = new CapacityProviderBlockingStub[2];
    /** The replica callers send to; flipped when it answers UNAVAILABLE or does not answer. */
    private volatile int route;

    @Test
    void nothingAcknowledgedIsLostAndADeposedLeaderWritesNothing() throws Exception {
        List<Double> failovers = new ArrayList<>();
        TestingPostgres postgres = TestingPostgres.shared();
        try (TestingProvider replicas = TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .postgresState(postgres, postgres.createDatabase())
                .leaderLease(LEASE, RENEW)
                .replicas(2)
                .fakeLatency(Duration.ofMillis(30))
                .seedCount(CALLERS * MACHINES_PER_CALLER)
                .build()) {
            assertThat(replicas.awaitLeader(TAKEOVER)).isZero();
            for (int i = 0; i < 2; i++) {
                stubs[i] = replicas.replica(i).grpc();
            }
            List<String> ids = stubs[0].list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                    .map(Machine::getId)
                    .sorted()
                    .toList();
            assertThat(ids).hasSize(CALLERS * MACHINES_PER_CALLER);
            Set<String> inventory = new HashSet<>(ids);
            try (LifecycleCallers callers =
                    LifecycleCallers.start(changes, ids, CALLERS, MACHINES_PER_CALLER, new ToTheLeader(), () -> 1)) {
                Random random = new Random(42);
                CompletableFuture<Void> standby = CompletableFuture.completedFuture(null);
                for (int cycle = 1; cycle <= CYCLES; cycle++) {
                    Thread.sleep(700 + random.nextInt(1500));
                    standby.join(); // the replica killed last time is back, standing by
                    int leader = replicas.awaitLeader(TAKEOVER);
                    assertThat(leader).as("a leader before kill %d", cycle).isNotNegative();
                    long killed = System.nanoTime();
                    replicas.replica(leader).kill();
                    assertThat(replicas.replica(1 - leader).awaitReady(TAKEOVER))
                            .as("the standby took over after kill %d", cycle)
                            .isTrue();
                    failovers.add((System.nanoTime() - killed) / 1e9);
                    callers.pause();
                    changes.verify(stubs[1 - leader], inventory, "after kill " + cycle);
                    if (!changes.violations().isEmpty()) {
                        // what the replica that took over said about it
                        replicas.replica(1 - leader).log().forEach(System.err::println);
                    }
                    assertThat(changes.violations()).as("violations").isEmpty();
                    // back as a standby, starting while the callers go on
                    standby = startInBackground(replicas.replica(leader));
                    callers.resume();
                }
                standby.join();

                int frozen = replicas.awaitLeader(TAKEOVER);
                int successor = 1 - frozen;
                replicas.replica(frozen).freeze();
                assertThat(replicas.replica(successor).awaitReady(TAKEOVER))
                        .as("the standby took over from the frozen leader")
                        .isTrue();
                callers.pause();
                changes.verify(stubs[successor], inventory, "after the freeze");
                replicas.replica(frozen).thaw();
                writesOfTheDeposedLeader(frozen, successor, ids);
                long woken = System.nanoTime();
                while (replicas.replica(frozen).readyz() != 503 && System.nanoTime() - woken < TAKEOVER.toNanos()) {
                    Thread.sleep(20);
                }
                assertThat(replicas.replica(frozen).readyz())
                        .as("the woken leader stands by")
                        .isEqualTo(503);
                assertThat(replicas.replica(frozen).log()).anyMatch(l -> l.contains("stepped down as leader"));
                changes.verify(stubs[successor], inventory, "after the frozen leader woke");
                callers.resume();
                Thread.sleep(1_000);

                assertThat(changes.violations()).as("violations").isEmpty();
                assertThat(callers.acknowledged()).as("acknowledged calls").isGreaterThan(CYCLES * 20);
            }
        } finally {
            report(failovers);
        }
    }

    private static CompletableFuture<Void> startInBackground(ProviderReplica replica) {
        return CompletableFuture.runAsync(() -> {
            try {
                replica.start();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
    }

    /** Calls go to one replica until it does not answer, then to the other. */
    private final class ToTheLeader implements LifecycleCallers.Route {
        @Override
        public CapacityProviderBlockingStub stub() {
            return stubs[route];
        }

        @Override
        public void unanswered(CapacityProviderBlockingStub stub) {
            int target = stub == stubs[0] ? 0 : 1;
            if (route == target) {
                route = 1 - target;
            }
            LifecycleCallers.sleep(50);
        }
    }

    /**
     * Right after it wakes, the deposed leader is sent a mutation for each machine with tokens of a
     * fresh shard: none may be accepted. Then the successor is sent lower tokens of that shard: had
     * any of the deposed leader's fence marks reached the database, they would be fenced.
     */
    private void writesOfTheDeposedLeader(int deposed, int successor, List<String> ids) {
        int accepted = 0;
        for (int i = 0; i < ids.size(); i++) {
            try {
                TransitionAck ack = changes.call(stubs[deposed], "drain", ids.get(i), "deposed", 1, 1000 + i);
                accepted++;
                changes.violation(
                        "the deposed leader acknowledged a drain of " + ids.get(i) + ": " + ack.getOperationId());
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (code != Status.Code.UNAVAILABLE && code != Status.Code.DEADLINE_EXCEEDED) {
                    changes.violation("the deposed leader answered " + e.getStatus() + " for " + ids.get(i));
                }
            }
        }
        assertThat(accepted).as("writes the deposed leader accepted").isZero();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            MachineState state = stubs[successor]
                    .get(MachineRef.newBuilder().setId(id).build())
                    .getState();
            // a call that cannot start a transition from this state, so nothing the callers know changes
            String kind = state == MachineState.MACHINE_STATE_CONFIGURED ? "create" : "drain";
            try {
                changes.call(stubs[successor], kind, id, "deposed", 1, 500 + i);
            } catch (StatusRuntimeException e) {
                if (e.getStatus().getCode() == Status.Code.FAILED_PRECONDITION) {
                    changes.violation("a fence mark the deposed leader was sent reached the database: "
                            + e.getStatus().getDescription());
                }
            }
        }
    }

    private static void report(List<Double> failovers) throws java.io.IOException {
        List<Double> sorted = new ArrayList<>(failovers);
        sorted.sort(Double::compare);
        String line = sorted.isEmpty()
                ? "no failover measured"
                : String.format(
                        java.util.Locale.ROOT,
                        "failover (leader SIGKILLed -> the other replica's /readyz 200), lease %s, renew %s, %d"
                                + " kills: p50 %.2f s, max %.2f s; all: %s",
                        GoDuration.format(LEASE),
                        GoDuration.format(RENEW),
                        sorted.size(),
                        sorted.get(sorted.size() / 2),
                        sorted.get(sorted.size() - 1),
                        failovers);
        System.out.println(line);
        Path out = Path.of("target", "failover-times.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, line + "\n", StandardCharsets.UTF_8);
    }
}
