package dev.bigfleet.proxmox.server.shard;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a BigFleet shard keeps of a provider's machines, with the rules its inventory enforces on
 * every record it takes in (the shard's {@code pkg/machine} and the reconcile of {@code pkg/shard}):
 * a record changes state only along an edge of the shard's state machine, which has none out of
 * Failed; every record it stores meets the invariants of its state. A record that breaks a rule is
 * refused, and the shard keeps what it had: the refusals are what a test counts.
 */
final class ShardInventory {
    /** The edges the shard's state machine allows; any transitional state may also fail. */
    private static final Map<MachineState, Set<MachineState>> EDGES = Map.of(
            MachineState.MACHINE_STATE_SPECULATIVE, EnumSet.of(MachineState.MACHINE_STATE_CREATING),
            MachineState.MACHINE_STATE_CREATING,
                    EnumSet.of(MachineState.MACHINE_STATE_IDLE, MachineState.MACHINE_STATE_FAILED),
            MachineState.MACHINE_STATE_IDLE,
                    EnumSet.of(MachineState.MACHINE_STATE_CONFIGURING, MachineState.MACHINE_STATE_DELETING),
            MachineState.MACHINE_STATE_CONFIGURING,
                    EnumSet.of(
                            MachineState.MACHINE_STATE_CONFIGURED,
                            MachineState.MACHINE_STATE_FAILED,
                            MachineState.MACHINE_STATE_IDLE),
            MachineState.MACHINE_STATE_CONFIGURED, EnumSet.of(MachineState.MACHINE_STATE_DRAINING),
            MachineState.MACHINE_STATE_DRAINING,
                    EnumSet.of(MachineState.MACHINE_STATE_IDLE, MachineState.MACHINE_STATE_FAILED),
            MachineState.MACHINE_STATE_DELETING,
                    EnumSet.of(MachineState.MACHINE_STATE_SPECULATIVE, MachineState.MACHINE_STATE_FAILED),
            MachineState.MACHINE_STATE_FAILED, EnumSet.noneOf(MachineState.class));

    private final Map<String, Machine> records = new ConcurrentHashMap<>();
    /** Machines an action of the shard is driving: a reconcile leaves them alone meanwhile. */
    private final Set<String> pending = ConcurrentHashMap.newKeySet();

    private final List<String> refusals = new ArrayList<>();

    /** A full List: every record taken in, and every record the List no longer holds dropped. */
    synchronized void reconcileFull(List<Machine> listed) {
        Set<String> seen = new HashSet<>();
        for (Machine m : listed) {
            seen.add(m.getId());
            takeIn(m);
        }
        records.keySet().retainAll(seen);
    }

    /** A delta List: every record taken in; a delta cannot say that a machine is gone. */
    synchronized void reconcileDelta(List<Machine> changed) {
        changed.forEach(this::takeIn);
    }

    /** What the shard's own action does to its record before or after calling the provider. */
    synchronized void applyLocally(String id, MachineState state) {
        Machine existing = records.get(id);
        if (existing == null) {
            refusals.add(id + ": local transition to " + state + " of a machine the shard does not hold");
            return;
        }
        if (existing.getState() != state) {
            apply(existing.toBuilder().setState(state).build(), existing);
        }
    }

    /** What the shard does with the machine in the provider's answer to its own call. */
    synchronized void acknowledged(Machine m) {
        Machine existing = records.get(m.getId());
        if (existing == null) {
            insert(m);
        } else if (existing.getState() != m.getState()) {
            apply(m, existing);
        } else {
            records.put(m.getId(), m);
        }
    }

    void begin(String id) {
        pending.add(id);
    }

    void end(String id) {
        pending.remove(id);
    }

    Optional<Machine> get(String id) {
        return Optional.ofNullable(records.get(id));
    }

    List<Machine> all() {
        return List.copyOf(records.values());
    }

    synchronized List<String> refusals() {
        return List.copyOf(refusals);
    }

    private void takeIn(Machine m) {
        if (pending.contains(m.getId())) {
            return;
        }
        Machine existing = records.get(m.getId());
        if (existing == null) {
            insert(m);
        } else if (existing.getState() != m.getState()) {
            apply(m, existing);
        }
    }

    private void insert(Machine m) {
        Optional<String> broken = invariantBroken(m);
        if (broken.isPresent()) {
            refusals.add("insert " + m.getId() + ": " + broken.get());
            return;
        }
        records.put(m.getId(), m);
    }

    private void apply(Machine m, Machine existing) {
        boolean allowed = EDGES.get(existing.getState()).contains(m.getState());
        if (!allowed) {
            refusals.add(m.getId() + ": invalid state transition: " + existing.getState() + " -> " + m.getState());
            return;
        }
        Optional<String> broken = invariantBroken(m);
        if (broken.isPresent()) {
            refusals.add(m.getId() + ": " + broken.get());
            return;
        }
        records.put(m.getId(), m);
    }

    /** The invariant a record in its state breaks, if any. */
    static Optional<String> invariantBroken(Machine m) {
        boolean host =
                !m.getHost().getRef().isEmpty() || !m.getHost().getProvider().isEmpty();
        boolean cluster = !m.getCluster().isEmpty();
        switch (m.getState()) {
            case MACHINE_STATE_SPECULATIVE, MACHINE_STATE_CREATING -> {
                if (host) {
                    return Optional.of(m.getState() + " with a host");
                }
                if (cluster) {
                    return Optional.of(m.getState() + " with a cluster");
                }
            }
            case MACHINE_STATE_IDLE, MACHINE_STATE_CONFIGURING, MACHINE_STATE_DELETING -> {
                if (!host) {
                    return Optional.of(m.getState() + " without a host");
                }
            }
            case MACHINE_STATE_CONFIGURED, MACHINE_STATE_DRAINING -> {
                if (!host || !cluster) {
                    return Optional.of(m.getState() + " without a host or a cluster");
                }
            }
            case MACHINE_STATE_FAILED -> {
                if (m.getLastError().isEmpty()) {
                    return Optional.of("FAILED without a last_error");
                }
            }
            default -> {
                return Optional.of("state " + m.getState());
            }
        }
        if (!(m.getInterruptionProbability() >= 0 && m.getInterruptionProbability() <= 1)) {
            return Optional.of("interruption_probability " + m.getInterruptionProbability());
        }
        if (!(m.getPricePerHour() >= 0)) {
            return Optional.of("price_per_hour " + m.getPricePerHour());
        }
        return Optional.empty();
    }
}
