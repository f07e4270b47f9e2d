package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Polling helpers (on Awaitility). Transitions are asynchronous: the ack comes back in the
 * transitional state and the outcome shows up later on Get, so a test waits by polling Get. Timeouts are generous (a
 * slow CI box must not fail a correct provider) and every timeout names the last snapshot seen.
 */
public final class Await {
    /** Upper bound for any single transition to settle in the suite's servers. */
    public static final Duration SETTLE = Duration.ofSeconds(30);
    /** Poll period: fine enough to catch the transitional states of a ~60 ms fake transition. */
    public static final long POLL_MILLIS = 20;

    private Await() {}

    public static Machine settled(ProviderClient client, String id) {
        return settled(client, id, SETTLE);
    }

    /** Polls until the machine is in a non-transitional state and returns that snapshot. */
    public static Machine settled(ProviderClient client, String id, Duration timeout) {
        AtomicReference<Machine> last = new AtomicReference<>();
        return poll(
                timeout,
                Duration.ofMillis(POLL_MILLIS),
                () -> remember(last, client.get(id)),
                m -> States.isSettled(m.getState()),
                () -> "machine " + id + " did not settle within " + timeout + "; last seen: " + describe(last));
    }

    public static Machine state(ProviderClient client, String id, MachineState target) {
        return state(client, id, target, SETTLE);
    }

    /**
     * Polls until the machine reaches {@code target}; fails at once if it settles in another
     * state (no point waiting 30 s for a machine that went FAILED). Call it after the ack of
     * the transition that should lead there.
     */
    public static Machine state(ProviderClient client, String id, MachineState target, Duration timeout) {
        AtomicReference<Machine> last = new AtomicReference<>();
        Machine m = poll(
                timeout,
                Duration.ofMillis(POLL_MILLIS),
                () -> remember(last, client.get(id)),
                seen -> seen.getState() == target || States.isSettled(seen.getState()),
                () -> "machine " + id + " did not reach " + target + " within " + timeout + "; last seen: "
                        + describe(last));
        if (m.getState() != target) {
            throw new AssertionError("machine " + id + " settled in " + m.getState() + " instead of " + target
                    + "; last seen: " + States.describe(m));
        }
        return m;
    }

    /** Polls until settled, appending every snapshot to {@code trace}; returns the settled one. */
    public static Machine follow(ProviderClient client, String id, Trace trace) {
        return follow(client, id, trace, SETTLE);
    }

    public static Machine follow(ProviderClient client, String id, Trace trace, Duration timeout) {
        AtomicReference<Machine> last = new AtomicReference<>();
        return poll(
                timeout,
                Duration.ofMillis(POLL_MILLIS / 2),
                () -> {
                    Machine m = remember(last, client.get(id));
                    trace.add(m);
                    return m;
                },
                m -> States.isSettled(m.getState()),
                () -> "machine " + id + " did not settle within " + timeout + "; trace " + trace + ", last seen: "
                        + describe(last));
    }

    /** Polls {@code read} (at once, then every {@code every}) until {@code done}; the timeout names what was seen. */
    private static Machine poll(
            Duration timeout,
            Duration every,
            Callable<Machine> read,
            Predicate<Machine> done,
            Supplier<String> onTimeout) {
        try {
            return Awaitility.await()
                    .atMost(timeout)
                    .pollDelay(Duration.ZERO)
                    .pollInterval(every)
                    .until(read, done);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(onTimeout.get(), e);
        }
    }

    private static Machine remember(AtomicReference<Machine> last, Machine m) {
        last.set(m);
        return m;
    }

    private static String describe(AtomicReference<Machine> last) {
        return last.get() == null ? "nothing" : States.describe(last.get());
    }

    /**
     * Polls for {@code span} and records every snapshot; used to show that a settled machine
     * stays put (no spontaneous transition, no late completion).
     */
    public static Trace watch(ProviderClient client, String id, Duration span) {
        Trace trace = new Trace();
        long end = System.nanoTime() + span.toNanos();
        do {
            trace.add(client.get(id));
            sleep(POLL_MILLIS * 2);
        } while (System.nanoTime() < end);
        return trace;
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting", e);
        }
    }
}
