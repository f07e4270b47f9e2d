package dev.bigfleet.proxmox.pvesim;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/** The pending injected faults; guarded by the cluster lock. */
final class FaultState {
    final Map<TaskKind, ArrayDeque<String>> failingTasks = new EnumMap<>(TaskKind.class);
    final Map<TaskKind, ArrayDeque<Duration>> slowTasks = new EnumMap<>(TaskKind.class);
    final List<RequestFault> requestFaults = new ArrayList<>();
    final Set<Integer> agentNeverUp = new HashSet<>();
    boolean agentNeverUpForNewVms;
    /** Node on which a foreign VM takes the next /cluster/nextid answer; null when off. */
    String stealNextVmidOn;
    /** Per VM, the agent commands before which its agent freezes once, and for how long. */
    final Map<Integer, Map<String, Duration>> agentFreezes = new java.util.HashMap<>();
    /** Per storage, how many more clones find its lock taken until the lock times out. */
    final Map<String, Integer> storageLockTimeouts = new java.util.HashMap<>();

    final Map<String, Integer> diskRemovalLockTimeouts = new java.util.HashMap<>();

    /** Whether a failing or slow task of {@code kind} is pending. */
    boolean pending(TaskKind kind) {
        ArrayDeque<String> failing = failingTasks.get(kind);
        ArrayDeque<Duration> slow = slowTasks.get(kind);
        return (failing != null && !failing.isEmpty()) || (slow != null && !slow.isEmpty());
    }

    /**
     * Answers the next {@code remaining} requests matching method and path in its place, or lets
     * them be processed and then drops or delays their answers.
     */
    static final class RequestFault {
        final String method;
        final Pattern path;
        int remaining;
        final int status;
        final String message;
        final boolean drop;
        final Duration delay;
        /** What the request's {@code command} values, joined with single spaces, must match; null: anything. */
        final Pattern command;

        /** Answers in the request's place with {@code status} and {@code message}. */
        static RequestFault answered(String method, Pattern path, int count, int status, String message) {
            return new RequestFault(method, path, count, status, message, false, null, null);
        }

        /** Lets the request be processed and closes the connection instead of answering. */
        static RequestFault dropped(String method, Pattern path, int count) {
            return new RequestFault(method, path, count, 0, null, true, null, null);
        }

        /** As {@link #dropped}, for requests whose command line matches {@code command}. */
        static RequestFault droppedCommand(String method, Pattern path, Pattern command, int count) {
            return new RequestFault(method, path, count, 0, null, true, null, command);
        }

        /** Lets the request be processed and answers it after {@code delay}. */
        static RequestFault delayed(String method, Pattern path, int count, Duration delay) {
            return new RequestFault(method, path, count, 0, null, false, delay, null);
        }

        private RequestFault(
                String method,
                Pattern path,
                int remaining,
                int status,
                String message,
                boolean drop,
                Duration delay,
                Pattern command) {
            this.method = method;
            this.path = path;
            this.remaining = remaining;
            this.status = status;
            this.message = message;
            this.drop = drop;
            this.delay = delay;
            this.command = command;
        }

        /** Whether the request is processed (its answer dropped or delayed) rather than answered by the fault. */
        boolean processed() {
            return drop || delay != null;
        }

        boolean matches(String m, String p, Supplier<String> commandLine) {
            return remaining > 0
                    && (method.equals("*") || method.equalsIgnoreCase(m))
                    && path.matcher(p).matches()
                    && (command == null || command.matcher(commandLine.get()).matches());
        }
    }

    /**
     * Takes the first matching fault of the given kind (processed or not), counting it down.
     *
     * @param commandLine the request's {@code command} values joined with single spaces, read only
     *     when a fault asks for it
     */
    RequestFault takeRequestFault(String method, String path, boolean processed, Supplier<String> commandLine) {
        for (RequestFault f : requestFaults) {
            if (f.processed() == processed && f.matches(method, path, commandLine)) {
                f.remaining--;
                return f;
            }
        }
        return null;
    }

    /**
     * Uses up one pending lock timeout of this storage, if any: the text pve-storage dies with when
     * the storage lock is not had in time (a file lock for a local storage, the cluster file
     * system's lock for a shared one).
     */
    String takeStorageLockTimeout(StorageSpec s) {
        return take(storageLockTimeouts, s);
    }

    /** As {@link #takeStorageLockTimeout}, for the removal of one disk by a destroy. */
    String takeDiskRemovalLockTimeout(StorageSpec s) {
        return take(diskRemovalLockTimeouts, s);
    }

    private static String take(Map<String, Integer> pending, StorageSpec s) {
        Integer left = pending.get(s.id());
        if (left == null || left <= 0) {
            return null;
        }
        pending.put(s.id(), left - 1);
        return s.shared()
                ? "cfs-lock 'storage-" + s.id() + "' error: got lock request timeout"
                : "can't lock file '/var/lock/pve-manager/pve-storage-" + s.id() + "' - got timeout";
    }

    void clear() {
        storageLockTimeouts.clear();
        diskRemovalLockTimeouts.clear();
        failingTasks.clear();
        slowTasks.clear();
        requestFaults.clear();
        agentNeverUp.clear();
        agentFreezes.clear();
        agentNeverUpForNewVms = false;
        stealNextVmidOn = null;
    }
}
