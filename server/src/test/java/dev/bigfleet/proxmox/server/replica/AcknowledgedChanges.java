package dev.bigfleet.proxmox.server.replica;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What the callers know was acknowledged, machine by machine, and the check that a leader still
 * holds all of it: every acknowledged change visible (or moved on by the one call in flight, or
 * FAILED as interrupted), an idempotent retry answered with the acknowledged operation id, every
 * replay of an acknowledged fence token FAILED_PRECONDITION, no operation id handed out twice,
 * and no machine lost or duplicated.
 */
final class AcknowledgedChanges {
    /** What the callers know of one machine. */
    static final class Knowledge {
        final String shard;
        volatile String lastKind;
        volatile String lastOperation;
        volatile String inFlight;
        /** The highest token that passed the fence, known from a definite answer. */
        volatile long markSequence = -1;

        Knowledge(String shard) {
            this.shard = shard;
        }
    }

    final Map<String, Knowledge> known = new ConcurrentHashMap<>();
    final List<String> violations = new CopyOnWriteArrayList<>();
    /** operation id → "machine/kind" of the first ack that carried it. */
    private final Map<String, String> operations = new ConcurrentHashMap<>();

    void acknowledged(String id, String kind, String operationId, long sequence) {
        String first = operations.putIfAbsent(operationId, id + "/" + kind);
        if (first != null && !first.equals(id + "/" + kind)) {
            violations.add(
                    "operation id " + operationId + " handed out for " + first + " and again for " + id + "/" + kind);
        }
        Knowledge k = known.get(id);
        k.lastKind = kind;
        k.lastOperation = operationId;
        k.inFlight = null;
        passed(k, sequence);
    }

    static void passed(Knowledge k, long sequence) {
        if (sequence > k.markSequence) {
            k.markSequence = sequence;
        }
    }

    static TransitionAck call(
            CapacityProviderBlockingStub stub, String kind, String id, String shard, long epoch, long seq) {
        CapacityProviderBlockingStub s = stub.withDeadlineAfter(3, TimeUnit.SECONDS);
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
                        .setClusterId("failover-cluster")
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
    static String nextKind(MachineState state, boolean coin) {
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

    /** Checks everything acknowledged against the leader behind {@code stub}; callers are parked meanwhile. */
    void verify(CapacityProviderBlockingStub stub, Set<String> ids, String when) {
        // wait for the connection: the channel may still be backing off from when this replica was killed
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
            boolean movedByInFlight =
                    k.inFlight != null && (state.equals(transitional(k.inFlight)) || state.equals(target(k.inFlight)));
            if (!acknowledgedVisible && !movedByInFlight) {
                violations.add(when + ": " + m.getId() + " is " + state + " but " + k.lastKind + " " + k.lastOperation
                        + " was acknowledged (in flight: " + k.inFlight + ")");
            }
            if (acknowledgedVisible && !movedByInFlight) {
                try {
                    TransitionAck again = call(stub, k.lastKind, m.getId(), "", 0, 0);
                    if (!again.getOperationId().equals(k.lastOperation)) {
                        violations.add(when + ": retry of " + k.lastKind + " on " + m.getId() + " got "
                                + again.getOperationId() + " instead of " + k.lastOperation);
                    }
                } catch (StatusRuntimeException e) {
                    // a transition the listed state showed may have failed since (the fake backend of a
                    // new leader does not have the old one's VMs): FAILED is allowed, any other refusal not
                    String description = String.valueOf(e.getStatus().getDescription());
                    if (e.getStatus().getCode() != Status.Code.ABORTED || !description.contains("in state FAILED")) {
                        violations.add(
                                when + ": retry of " + k.lastKind + " on " + m.getId() + " failed: " + e.getStatus());
                    }
                }
            }
        }
        for (Map.Entry<String, Knowledge> e : known.entrySet()) {
            Knowledge k = e.getValue();
            if (k.markSequence < 0) {
                continue;
            }
            try {
                call(stub, "create", e.getKey(), k.shard, 1, k.markSequence);
                violations.add(when + ": replay of (1," + k.markSequence + ") on " + e.getKey() + " was not fenced");
            } catch (StatusRuntimeException ex) {
                if (ex.getStatus().getCode() != Status.Code.FAILED_PRECONDITION) {
                    violations.add(when + ": replay on " + e.getKey() + " answered " + ex.getStatus());
                }
            }
        }
    }
}
