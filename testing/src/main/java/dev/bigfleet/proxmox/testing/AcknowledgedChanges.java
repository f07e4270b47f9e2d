package dev.bigfleet.proxmox.testing;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DeleteRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.DrainRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What callers driving random lifecycle calls know was acknowledged, machine by machine, and the
 * check that a provider (restarted, or a replica that took over) still holds all of it: every
 * acknowledged change visible (in its transition or at its target, or moved on by the call in flight
 * or an earlier one whose outcome stayed unknown), an idempotent retry answered with the acknowledged operation id, every replay of an
 * acknowledged fence token FAILED_PRECONDITION, no operation id handed out twice, and no machine
 * lost or duplicated. {@link LifecycleCallers} records into it.
 */
public final class AcknowledgedChanges {
    /** What the callers know of one machine. */
    public static final class Knowledge {
        final String shard;
        volatile String lastKind;
        volatile String lastOperation;
        volatile String inFlight;
        /**
         * Earlier calls whose outcome stayed unknown (no answer within the deadline, the provider
         * killed) and that nothing observed since has shown applied: the provider may still admit
         * one after the caller moved on, so each may explain where the machine is.
         */
        final Set<String> unresolved = ConcurrentHashMap.newKeySet();
        /** The highest token that passed the fence, known from a definite answer. */
        volatile long markEpoch = -1;

        volatile long markSequence = -1;

        Knowledge(String shard) {
            this.shard = shard;
        }
    }

    private final String clusterId;
    private final Duration callDeadline;
    private final boolean retriesMayFindFailed;
    private final Map<String, Knowledge> known = new ConcurrentHashMap<>();
    private final List<String> violations = new CopyOnWriteArrayList<>();
    /** operation id → "machine/kind" of the first ack that carried it. */
    private final Map<String, String> operations = new ConcurrentHashMap<>();

    private AcknowledgedChanges(String clusterId, Duration callDeadline, boolean retriesMayFindFailed) {
        this.clusterId = clusterId;
        this.callDeadline = callDeadline;
        this.retriesMayFindFailed = retriesMayFindFailed;
    }

    /**
     * For one provider restarted on its own state: a retry of an acknowledged call must succeed
     * with the acknowledged operation id.
     */
    public static AcknowledgedChanges ofOneProvider(String clusterId, Duration callDeadline) {
        return new AcknowledgedChanges(clusterId, callDeadline, false);
    }

    /**
     * For replicas: a transition the new leader shows may have FAILED since (the fake backend of a
     * new leader does not have the old one's VMs), so a retry refused as "in state FAILED" is
     * allowed; any other refusal is not.
     */
    public static AcknowledgedChanges ofReplicas(String clusterId, Duration callDeadline) {
        return new AcknowledgedChanges(clusterId, callDeadline, true);
    }

    /** The deadline of each call. */
    Duration callDeadline() {
        return callDeadline;
    }

    /** Starts tracking machine {@code id}, driven by one caller as {@code shard}. */
    public void track(String id, String shard) {
        known.put(id, new Knowledge(shard));
    }

    public Knowledge of(String id) {
        return known.get(id);
    }

    /** Every violation found so far. */
    public List<String> violations() {
        return violations;
    }

    /** A violation a caller saw itself. */
    public void violation(String what) {
        violations.add(what);
    }

    /** Marks {@code kind} as the call in flight on {@code id}: its outcome is unknown until it answers. */
    public void inFlight(String id, String kind) {
        Knowledge k = known.get(id);
        String earlier = k.inFlight;
        if (earlier != null) {
            k.unresolved.add(earlier); // sent again or followed by another call before its outcome was known
        }
        k.inFlight = kind;
    }

    /**
     * A caller read {@code id} in {@code state} before its next call. A call in flight whose answer
     * was lost (the provider was killed, the replica deposed) took effect if the machine shows its
     * transition or its target, since only that call leads there from the state it was sent in:
     * what a reader was shown is durable, so it becomes the change a restart must keep (its
     * operation id unknown).
     */
    public void observed(String id, MachineState state) {
        Knowledge k = known.get(id);
        String explained = explains(k, state.name());
        if (explained != null) {
            k.lastKind = explained;
            k.lastOperation = null;
            k.inFlight = null;
            k.unresolved.clear();
        }
    }

    /** The call in flight, or an earlier one of unknown outcome, that leads to {@code state}; or null. */
    private static String explains(Knowledge k, String state) {
        List<String> candidates = new ArrayList<>();
        if (k.inFlight != null) {
            candidates.add(k.inFlight);
        }
        candidates.addAll(k.unresolved);
        for (String kind : candidates) {
            if (state.equals(transitional(kind)) || state.equals(target(kind))) {
                return kind;
            }
        }
        return null;
    }

    /** The call on {@code id} was acknowledged with {@code operationId}, its token {@code (epoch, sequence)}. */
    public void acknowledged(String id, String kind, String operationId, long epoch, long sequence) {
        String first = operations.putIfAbsent(operationId, id + "/" + kind);
        if (first != null && !first.equals(id + "/" + kind)) {
            violations.add(
                    "operation id " + operationId + " handed out for " + first + " and again for " + id + "/" + kind);
        }
        Knowledge k = known.get(id);
        k.lastKind = kind;
        k.lastOperation = operationId;
        k.inFlight = null;
        k.unresolved.clear();
        passed(k, epoch, sequence);
    }

    /**
     * The call on {@code id} got a definite refusal (ABORTED, NOT_FOUND, INVALID_ARGUMENT): nothing
     * changed, but its token passed the fence.
     */
    public void refused(String id, long epoch, long sequence) {
        Knowledge k = known.get(id);
        k.inFlight = null;
        passed(k, epoch, sequence);
    }

    /** The call on {@code id} was fenced: nothing changed, and it is no longer in flight. */
    public void fenced(String id) {
        known.get(id).inFlight = null;
    }

    private static void passed(Knowledge k, long epoch, long sequence) {
        if (epoch > k.markEpoch || (epoch == k.markEpoch && sequence > k.markSequence)) {
            k.markEpoch = epoch;
            k.markSequence = sequence;
        }
    }

    /** One lifecycle call of {@code kind} with the fence token {@code (epoch, seq)} of {@code shard}. */
    public TransitionAck call(
            CapacityProviderBlockingStub stub, String kind, String id, String shard, long epoch, long seq) {
        CapacityProviderBlockingStub s = stub.withDeadlineAfter(callDeadline.toMillis(), TimeUnit.MILLISECONDS);
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
                        .setClusterId(clusterId)
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

    /** The next call a caller makes on a machine in {@code state}, or null when there is none. */
    public static String nextKind(MachineState state, boolean coin) {
        switch (state) {
            case MACHINE_STATE_SPECULATIVE:
                return "create";
            case MACHINE_STATE_IDLE:
                return coin ? "configure" : "delete";
            case MACHINE_STATE_CONFIGURED:
                return "drain";
            default:
                return null; // transitional or FAILED: nothing to do
        }
    }

    private static String transitional(String kind) {
        return Map.of(
                        "create", "MACHINE_STATE_CREATING",
                        "configure", "MACHINE_STATE_CONFIGURING",
                        "drain", "MACHINE_STATE_DRAINING",
                        "delete", "MACHINE_STATE_DELETING")
                .get(kind);
    }

    private static String target(String kind) {
        return Map.of(
                        "create", "MACHINE_STATE_IDLE",
                        "configure", "MACHINE_STATE_CONFIGURED",
                        "drain", "MACHINE_STATE_IDLE",
                        "delete", "MACHINE_STATE_SPECULATIVE")
                .get(kind);
    }

    /**
     * Checks everything acknowledged against the provider behind {@code stub} (callers are parked
     * meanwhile), adding what does not hold to {@link #violations()}, each prefixed with {@code when}.
     */
    public void verify(CapacityProviderBlockingStub stub, Set<String> ids, String when) {
        // wait for the connection: the channel may still be backing off from when the provider was killed
        List<Machine> all = stub.withWaitForReady()
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .list(ListFilter.getDefaultInstance())
                .getMachinesList();
        Set<String> seen = new HashSet<>();
        for (Machine m : all) {
            if (!seen.add(m.getId())) {
                violations.add(when + ": machine listed twice: " + m.getId());
            }
        }
        if (!seen.equals(ids)) {
            Set<String> missing = new TreeSet<>(ids);
            missing.removeAll(seen);
            Set<String> extra = new TreeSet<>(seen);
            extra.removeAll(ids);
            violations.add(when + ": inventory changed: " + seen.size() + " machines instead of " + ids.size()
                    + "; missing " + missing + ", new " + extra);
        }
        CapacityProviderBlockingStub ready = stub.withWaitForReady();
        for (Machine m : all) {
            Knowledge k = known.get(m.getId());
            String state = m.getState().name();
            if (k == null || k.lastKind == null || m.getState() == MachineState.MACHINE_STATE_FAILED) {
                if (m.getState() == MachineState.MACHINE_STATE_FAILED
                        && m.getLastError().isBlank()) {
                    violations.add(when + ": " + m.getId() + " FAILED without last_error");
                }
                continue;
            }
            boolean acknowledgedVisible = state.equals(transitional(k.lastKind)) || state.equals(target(k.lastKind));
            boolean movedByInFlight = explains(k, state) != null;
            if (!acknowledgedVisible && !movedByInFlight) {
                violations.add(when + ": " + m.getId() + " is " + state + " but " + k.lastKind + " "
                        + (k.lastOperation == null ? "(seen applied, its answer lost)" : k.lastOperation)
                        + " was acknowledged (in flight: " + k.inFlight + ", unresolved: " + k.unresolved + ")");
            }
            if (acknowledgedVisible && !movedByInFlight && k.lastOperation != null) {
                // the same call again is an idempotent retry answered with the acknowledged operation id
                try {
                    TransitionAck again = call(ready, k.lastKind, m.getId(), "", 0, 0);
                    if (!again.getOperationId().equals(k.lastOperation)) {
                        violations.add(when + ": retry of " + k.lastKind + " on " + m.getId() + " got "
                                + again.getOperationId() + " instead of " + k.lastOperation);
                    }
                } catch (StatusRuntimeException e) {
                    String description = String.valueOf(e.getStatus().getDescription());
                    boolean foundFailed =
                            e.getStatus().getCode() == Status.Code.ABORTED && description.contains("in state FAILED");
                    if (!retriesMayFindFailed || !foundFailed) {
                        violations.add(
                                when + ": retry of " + k.lastKind + " on " + m.getId() + " failed: " + e.getStatus());
                    }
                }
            }
        }
        for (Map.Entry<String, Knowledge> e : known.entrySet()) {
            Knowledge k = e.getValue();
            if (k.markEpoch < 0) {
                continue;
            }
            try {
                call(ready, "create", e.getKey(), k.shard, k.markEpoch, k.markSequence);
                violations.add(when + ": replay of (" + k.markEpoch + "," + k.markSequence + ") on " + e.getKey()
                        + " was not fenced");
            } catch (StatusRuntimeException ex) {
                if (ex.getStatus().getCode() != Status.Code.FAILED_PRECONDITION) {
                    violations.add(when + ": replay on " + e.getKey() + " answered " + ex.getStatus());
                }
            }
        }
    }
}
