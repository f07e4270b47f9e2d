package dev.bigfleet.proxmox.server.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import dev.bigfleet.proxmox.server.ProcessHarness;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
    private static final Duration START = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    /** What one client knows was acknowledged on one machine. */
    private static final class Knowledge {
        volatile String lastKind;
        volatile String lastOperation;
        volatile String inFlight;
        /** The highest token that passed the fence, known from a definite answer. */
        volatile long markSequence = -1;

        volatile long markEpoch = -1;
    }

    private final Map<String, Knowledge> known = new ConcurrentHashMap<>();
    /** operation id → "machine/kind" of the first ack that carried it. */
    private final Map<String, String> operations = new ConcurrentHashMap<>();

    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicInteger parked = new AtomicInteger();
    private final AtomicInteger acks = new AtomicInteger();
    private volatile int epoch = 1;
    private volatile CapacityProviderBlockingStub stub;

    @Test
    void acknowledgedChangesSurviveRepeatedKills() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String[] args = {
            "--proxmox-backend",
            "fake",
            "--addr",
            "127.0.0.1:" + port,
            "--metrics-addr",
            "",
            "--fake-latency",
            "30ms",
            "--seed-count",
            Integer.toString(CLIENTS * MACHINES_PER_CLIENT),
            "--reconcile-interval",
            "0",
            "--state",
            dir.resolve("state.db").toString()
        };
        ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", port)
                .usePlaintext()
                .build();
        stub = CapacityProviderGrpc.newBlockingStub(channel);
        ProcessHarness provider = ProcessHarness.start(args);
        List<Thread> clients = new ArrayList<>();
        try {
            provider.awaitServing(START);
            List<String> ids = stub.list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                    .map(Machine::getId)
                    .sorted()
                    .toList();
            assertThat(ids).hasSize(CLIENTS * MACHINES_PER_CLIENT);
            for (int c = 0; c < CLIENTS; c++) {
                List<String> mine = ids.subList(c * MACHINES_PER_CLIENT, (c + 1) * MACHINES_PER_CLIENT);
                mine.forEach(id -> known.put(id, new Knowledge()));
                Thread t = new Thread(clientLoop("shard-" + c, mine, new Random(c)), "crash-client-" + c);
                t.start();
                clients.add(t);
            }
            Random random = new Random(42);
            for (int cycle = 1; cycle <= CYCLES; cycle++) {
                Thread.sleep(300 + random.nextInt(900));
                provider.process.destroyForcibly();
                provider.awaitExit(Duration.ofSeconds(30));
                pauseClients();
                provider = ProcessHarness.start(args);
                provider.awaitServing(START);
                verify(ids, cycle);
                epoch = cycle + 1;
                paused.set(false);
            }
            assertThat(violations).as("violations").isEmpty();
            assertThat(acks.get()).as("acknowledged calls").isGreaterThan(CYCLES * 5);
        } finally {
            stopped.set(true);
            paused.set(false);
            for (Thread t : clients) {
                t.join(10_000);
            }
            channel.shutdownNow();
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
                String kind = nextKind(m.getState(), random);
                if (kind == null) {
                    sleep(2);
                    continue;
                }
                int currentEpoch = epoch;
                long seq = ++sequence;
                Knowledge k = known.get(id);
                k.inFlight = kind;
                try {
                    TransitionAck ack = call(kind, id, shard, currentEpoch, seq);
                    recordOperation(ack.getOperationId(), id + "/" + kind);
                    k.lastKind = kind;
                    k.lastOperation = ack.getOperationId();
                    k.inFlight = null;
                    passed(k, currentEpoch, seq);
                    acks.incrementAndGet();
                } catch (StatusRuntimeException e) {
                    Status.Code code = e.getStatus().getCode();
                    if (code == Status.Code.FAILED_PRECONDITION) {
                        violations.add("fenced although every token of " + shard + " increases: " + id + " " + kind
                                + " (" + currentEpoch + "," + seq + "): "
                                + e.getStatus().getDescription());
                        k.inFlight = null;
                    } else if (code == Status.Code.ABORTED
                            || code == Status.Code.NOT_FOUND
                            || code == Status.Code.INVALID_ARGUMENT) {
                        k.inFlight = null; // a definite answer: nothing changed, but the token passed the fence
                        passed(k, currentEpoch, seq);
                    }
                    // UNAVAILABLE, DEADLINE_EXCEEDED...: unknown outcome, stays in flight
                }
            }
        };
    }

    private static void passed(Knowledge k, long epoch, long seq) {
        if (epoch > k.markEpoch || (epoch == k.markEpoch && seq > k.markSequence)) {
            k.markEpoch = epoch;
            k.markSequence = seq;
        }
    }

    private void recordOperation(String operationId, String what) {
        String first = operations.putIfAbsent(operationId, what);
        if (first != null && !first.equals(what)) {
            violations.add("operation id " + operationId + " handed out for " + first + " and again for " + what);
        }
    }

    private static String nextKind(MachineState state, Random random) {
        switch (state) {
            case MACHINE_STATE_SPECULATIVE:
                return "create";
            case MACHINE_STATE_IDLE:
                return random.nextBoolean() ? "configure" : "delete";
            case MACHINE_STATE_CONFIGURED:
                return "drain";
            default:
                return null; // transitional or FAILED: nothing to do
        }
    }

    private TransitionAck call(String kind, String id, String shard, long epoch, long seq) {
        CapacityProviderBlockingStub s = stub.withWaitForReady().withDeadlineAfter(5, TimeUnit.SECONDS);
        switch (kind) {
            case "create":
                return s.create(CreateRequest.newBuilder()
                        .setMachineId(id)
                        .setShardId(shard)
                        .setShardEpoch(epoch)
                        .setSequenceNumber(seq)
                        .build());
            case "configure":
                return s.configure(ConfigureRequest.newBuilder()
                        .setMachineId(id)
                        .setClusterId("crash-cluster")
                        .putShardMetadata("client", shard)
                        .setShardId(shard)
                        .setShardEpoch(epoch)
                        .setSequenceNumber(seq)
                        .build());
            case "drain":
                return s.drain(DrainRequest.newBuilder()
                        .setMachineId(id)
                        .setGracePeriodSeconds(1)
                        .setShardId(shard)
                        .setShardEpoch(epoch)
                        .setSequenceNumber(seq)
                        .build());
            default:
                return s.delete(DeleteRequest.newBuilder()
                        .setMachineId(id)
                        .setShardId(shard)
                        .setShardEpoch(epoch)
                        .setSequenceNumber(seq)
                        .build());
        }
    }

    private static String transitional(String kind) {
        return Map.of(
                        "create",
                        "MACHINE_STATE_CREATING",
                        "configure",
                        "MACHINE_STATE_CONFIGURING",
                        "drain",
                        "MACHINE_STATE_DRAINING",
                        "delete",
                        "MACHINE_STATE_DELETING")
                .get(kind);
    }

    private static String target(String kind) {
        return Map.of(
                        "create",
                        "MACHINE_STATE_IDLE",
                        "configure",
                        "MACHINE_STATE_CONFIGURED",
                        "drain",
                        "MACHINE_STATE_IDLE",
                        "delete",
                        "MACHINE_STATE_SPECULATIVE")
                .get(kind);
    }

    private void verify(List<String> ids, int cycle) {
        List<Machine> all = stub.withWaitForReady()
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .list(ListFilter.getDefaultInstance())
                .getMachinesList();
        Set<String> seen = new HashSet<>();
        for (Machine m : all) {
            if (!seen.add(m.getId())) {
                violations.add("cycle " + cycle + ": machine listed twice: " + m.getId());
            }
        }
        if (!seen.equals(new HashSet<>(ids))) {
            violations.add(
                    "cycle " + cycle + ": inventory changed: " + seen.size() + " machines instead of " + ids.size());
        }
        for (Machine m : all) {
            Knowledge k = known.get(m.getId());
            String state = m.getState().name();
            if (k == null || k.lastKind == null || m.getState() == MachineState.MACHINE_STATE_FAILED) {
                if (m.getState() == MachineState.MACHINE_STATE_FAILED
                        && m.getLastError().isBlank()) {
                    violations.add("cycle " + cycle + ": " + m.getId() + " FAILED without last_error");
                }
                continue;
            }
            boolean acknowledgedVisible = state.equals(transitional(k.lastKind)) || state.equals(target(k.lastKind));
            boolean movedByInFlight =
                    k.inFlight != null && (state.equals(transitional(k.inFlight)) || state.equals(target(k.inFlight)));
            if (!acknowledgedVisible && !movedByInFlight) {
                violations.add("cycle " + cycle + ": " + m.getId() + " is " + state + " but " + k.lastKind + " "
                        + k.lastOperation + " was acknowledged (in flight: " + k.inFlight + ")");
            }
            if (acknowledgedVisible && !movedByInFlight) {
                // the same call again is an idempotent retry answered with the acknowledged operation id
                try {
                    TransitionAck again = call(k.lastKind, m.getId(), "", 0, 0);
                    if (!again.getOperationId().equals(k.lastOperation)) {
                        violations.add("cycle " + cycle + ": retry of " + k.lastKind + " on " + m.getId() + " got "
                                + again.getOperationId() + " instead of " + k.lastOperation);
                    }
                } catch (StatusRuntimeException e) {
                    violations.add("cycle " + cycle + ": retry of " + k.lastKind + " on " + m.getId() + " failed: "
                            + e.getStatus());
                }
            }
        }
        for (Map.Entry<String, Knowledge> e : known.entrySet()) {
            Knowledge k = e.getValue();
            if (k.markEpoch < 0) {
                continue;
            }
            int client = ids.indexOf(e.getKey()) / MACHINES_PER_CLIENT;
            try {
                call("create", e.getKey(), "shard-" + client, k.markEpoch, k.markSequence);
                violations.add("cycle " + cycle + ": replay of (" + k.markEpoch + "," + k.markSequence + ") on "
                        + e.getKey() + " was not fenced after restart");
            } catch (StatusRuntimeException ex) {
                if (ex.getStatus().getCode() != Status.Code.FAILED_PRECONDITION) {
                    violations.add("cycle " + cycle + ": replay on " + e.getKey() + " answered " + ex.getStatus());
                }
            }
        }
        if (!violations.isEmpty()) {
            throw new AssertionError("after kill " + cycle + ": " + violations);
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
