package dev.bigfleet.proxmox.server.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import dev.bigfleet.proxmox.testing.AcknowledgedChanges;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Concurrent clients drive random lifecycle calls against a provider process with {@code --state}
 * while it is SIGKILLed at random moments. After every restart, every acknowledged change is still
 * there (the machine is in that transition, at its target, moved on by the one call that was in
 * flight, or FAILED as interrupted), every fence mark holds, no operation id is handed out twice,
 * and no machine is lost or duplicated. {@code -Dcrash.cycles=N} runs a longer soak.
 */
class CrashRecoveryTest {
    private static final int CLIENTS = 8;
    private static final int MACHINES_PER_CLIENT = 12;
    private static final int CYCLES = Integer.getInteger("crash.cycles", 20);

    @TempDir
    Path dir;

    private final AcknowledgedChanges changes =
            AcknowledgedChanges.ofOneProvider("crash-cluster", Duration.ofSeconds(5));
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicInteger parked = new AtomicInteger();
    private final AtomicInteger acks = new AtomicInteger();
    private volatile int epoch = 1;
    private volatile CapacityProviderBlockingStub stub;

    @Test
    void acknowledgedChangesSurviveRepeatedKills() throws Exception {
        TestingProvider provider = TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .noHttp()
                .fakeLatency(Duration.ofMillis(30))
                .seedCount(CLIENTS * MACHINES_PER_CLIENT)
                .sqliteState(dir.resolve("state.db"))
                .build();
        stub = provider.grpc().withWaitForReady();
        List<Thread> clients = new ArrayList<>();
        try {
            List<String> ids = stub.list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                    .map(Machine::getId)
                    .sorted()
                    .toList();
            assertThat(ids).hasSize(CLIENTS * MACHINES_PER_CLIENT);
            for (int c = 0; c < CLIENTS; c++) {
                List<String> mine = ids.subList(c * MACHINES_PER_CLIENT, (c + 1) * MACHINES_PER_CLIENT);
                String shard = "shard-" + c;
                mine.forEach(id -> changes.track(id, shard));
                Thread t = new Thread(clientLoop(shard, mine, new Random(c)), "crash-client-" + c);
                t.start();
                clients.add(t);
            }
            Random random = new Random(42);
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                Thread.sleep(300 + random.nextInt(900));
                provider.kill();
                pauseClients();
                provider.replica(0).start();
                verify(ids, cycle);
                epoch = cycle + 1;
                paused.set(false);
            }
            assertThat(changes.violations()).as("violations").isEmpty();
            assertThat(acks.get()).as("acknowledged calls").isGreaterThan(CYCLES * 5);
        } finally {
            stopped.set(true);
            paused.set(false);
            for (Thread t : clients) {
                t.join(10_000);
            }
            provider.close();
        }
    }

    private void pauseClients() throws InterruptedException {
        parked.set(0);
        paused.set(true);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (parked.get() < CLIENTS && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(parked.get()).as("clients parked").isEqualTo(CLIENTS);
    }

    private Runnable clientLoop(String shard, List<String> machines, Random random) {
        return () -> {
            long sequence = 0;
            while (!stopped.get()) {
                if (paused.get()) {
                    parked.incrementAndGet();
                    while (paused.get() && !stopped.get()) {
                        sleep(5);
                    }
                    continue;
                }
                String id = machines.get(random.nextInt(machines.size()));
                Machine m;
                try {
                    m = stub.withWaitForReady()
                            .withDeadlineAfter(5, TimeUnit.SECONDS)
                            .get(MachineRef.newBuilder().setId(id).build());
                } catch (StatusRuntimeException e) {
                    sleep(20);
                    continue;
                }
                String kind = AcknowledgedChanges.nextKind(m.getState(), random.nextBoolean());
                if (kind == null) {
                    sleep(2);
                    continue;
                }
                int currentEpoch = epoch;
                long seq = ++sequence;
                changes.inFlight(id, kind);
                try {
                    TransitionAck ack = changes.call(stub, kind, id, shard, currentEpoch, seq);
                    changes.acknowledged(id, kind, ack.getOperationId(), currentEpoch, seq);
                    acks.incrementAndGet();
                } catch (StatusRuntimeException e) {
                    Status.Code code = e.getStatus().getCode();
                    if (code == Status.Code.FAILED_PRECONDITION) {
                        changes.violation("fenced although every token of " + shard + " increases: " + id + " " + kind
                                + " (" + currentEpoch + "," + seq + "): "
                                + e.getStatus().getDescription());
                        changes.fenced(id);
                    } else if (code == Status.Code.ABORTED
                            || code == Status.Code.NOT_FOUND
                            || code == Status.Code.INVALID_ARGUMENT) {
                        // a definite answer: nothing changed, but the token passed the fence
                        changes.refused(id, currentEpoch, seq);
                    }
                    // UNAVAILABLE, DEADLINE_EXCEEDED...: unknown outcome, stays in flight
                }
            }
        };
    }

    private void verify(List<String> ids, int cycle) {
        changes.verify(stub, new HashSet<>(ids), "cycle " + cycle);
        if (!changes.violations().isEmpty()) {
            throw new AssertionError("after kill " + cycle + ": " + changes.violations());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
