package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Callers driving random lifecycle calls, as BigFleet's shards do, each on machines of its own as
 * shard {@code shard-N} with a sequence number that only grows, recording every answer in {@link
 * AcknowledgedChanges}. A test pauses them (every caller parked, nothing in flight) to check a
 * restarted provider or a new leader, then resumes them. The crash test and the failover test
 * drive their providers with it.
 */
public final class LifecycleCallers implements AutoCloseable {
    /** Where the calls go. */
    public interface Route {
        /** The stub the next call goes to. */
        CapacityProviderBlockingStub stub();

        /**
         * A call through {@code stub} got no definite answer (unavailable, no answer in time): the
         * route may send the next ones elsewhere; it waits a moment before the caller goes on.
         */
        void unanswered(CapacityProviderBlockingStub stub);
    }

    private final AcknowledgedChanges changes;
    private final Route route;
    private final LongSupplier epoch;
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicInteger parked = new AtomicInteger();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final List<Thread> threads = new ArrayList<>();

    private LifecycleCallers(AcknowledgedChanges changes, Route route, LongSupplier epoch) {
        this.changes = changes;
        this.route = route;
        this.epoch = epoch;
    }

    /**
     * Starts {@code callers} callers, caller {@code c} owning the {@code c}-th run of {@code
     * perCaller} machines of {@code ids}, each with fence tokens of the epoch {@code epoch} gives
     * at the time of the call.
     */
    public static LifecycleCallers start(
            AcknowledgedChanges changes,
            List<String> ids,
            int callers,
            int perCaller,
            Route route,
            LongSupplier epoch) {
        if (ids.size() < callers * perCaller) {
            throw new IllegalArgumentException(ids.size() + " machines for " + callers + " callers of " + perCaller);
        }
        LifecycleCallers pool = new LifecycleCallers(changes, route, epoch);
        for (int c = 0; c < callers; c++) {
            List<String> mine = ids.subList(c * perCaller, (c + 1) * perCaller);
            String shard = "shard-" + c;
            mine.forEach(id -> changes.track(id, shard));
            Random random = new Random(c);
            Thread t = new Thread(() -> pool.run(shard, mine, random), "lifecycle-caller-" + c);
            t.start();
            pool.threads.add(t);
        }
        return pool;
    }

    /** Calls acknowledged so far. */
    public int acknowledged() {
        return acknowledged.get();
    }

    /** Returns once every caller is parked between calls (nothing in flight). */
    public void pause() throws InterruptedException {
        parked.set(0);
        paused.set(true);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (parked.get() < threads.size() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        if (parked.get() < threads.size()) {
            throw new AssertionError(parked.get() + " of " + threads.size() + " callers parked within 60 s");
        }
    }

    public void resume() {
        paused.set(false);
    }

    /** Stops every caller and waits for it. */
    @Override
    public void close() {
        stopped.set(true);
        paused.set(false);
        try {
            for (Thread t : threads) {
                t.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run(String shard, List<String> machines, Random random) {
        long sequence = 0;
        while (!stopped.get()) {
            if (paused.get()) {
                parked.incrementAndGet();
                while (paused.get() && !stopped.get()) {
                    sleep(5);
                }
                continue;
            }
            CapacityProviderBlockingStub stub = route.stub();
            String id = machines.get(random.nextInt(machines.size()));
            Machine m;
            try {
                m = stub.withDeadlineAfter(changes.callDeadline().toMillis(), TimeUnit.MILLISECONDS)
                        .get(MachineRef.newBuilder().setId(id).build());
            } catch (StatusRuntimeException e) {
                route.unanswered(stub);
                continue;
            }
            changes.observed(id, m.getState());
            String kind = AcknowledgedChanges.nextKind(m.getState(), random.nextBoolean());
            if (kind == null) {
                sleep(5);
                continue;
            }
            long tokenEpoch = epoch.getAsLong();
            long seq = ++sequence;
            changes.inFlight(id, kind);
            try {
                TransitionAck ack = changes.call(stub, kind, id, shard, tokenEpoch, seq);
                changes.acknowledged(id, kind, ack.getOperationId(), tokenEpoch, seq);
                acknowledged.incrementAndGet();
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (code == Status.Code.FAILED_PRECONDITION) {
                    changes.violation("fenced although every token of " + shard + " increases: " + id + " " + kind
                            + " (" + tokenEpoch + "," + seq + "): "
                            + e.getStatus().getDescription());
                    changes.fenced(id);
                } else if (code == Status.Code.ABORTED
                        || code == Status.Code.NOT_FOUND
                        || code == Status.Code.INVALID_ARGUMENT) {
                    // a definite answer: nothing changed, but the token passed the fence
                    changes.refused(id, tokenEpoch, seq);
                } else {
                    // UNAVAILABLE, DEADLINE_EXCEEDED...: unknown outcome, it stays in flight
                    route.unanswered(stub);
                }
            }
        }
    }

    /** Sleeps, for a route that waits before the next call. */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every call to {@code stub}; after a call without a definite answer the caller waits {@code pause}. */
    public static Route to(CapacityProviderBlockingStub stub, Duration pause) {
        return new Route() {
            @Override
            public CapacityProviderBlockingStub stub() {
                return stub;
            }

            @Override
            public void unanswered(CapacityProviderBlockingStub s) {
                sleep(pause.toMillis());
            }
        };
    }
}
