package dev.bigfleet.proxmox.conformance.support;

import dev.bigfleet.proxmox.proto.v1alpha1.HostRef;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import java.util.EnumSet;
import java.util.Set;

/** Small predicates over states and snapshots that many behaviours share. */
public final class States {
    // Short aliases: the generated constants carry the proto prefix (MACHINE_STATE_...).
    public static final MachineState UNSPECIFIED = MachineState.MACHINE_STATE_UNSPECIFIED;
    public static final MachineState SPECULATIVE = MachineState.MACHINE_STATE_SPECULATIVE;
    public static final MachineState CREATING = MachineState.MACHINE_STATE_CREATING;
    public static final MachineState IDLE = MachineState.MACHINE_STATE_IDLE;
    public static final MachineState CONFIGURING = MachineState.MACHINE_STATE_CONFIGURING;
    public static final MachineState CONFIGURED = MachineState.MACHINE_STATE_CONFIGURED;
    public static final MachineState DRAINING = MachineState.MACHINE_STATE_DRAINING;
    public static final MachineState DELETING = MachineState.MACHINE_STATE_DELETING;
    public static final MachineState FAILED = MachineState.MACHINE_STATE_FAILED;

    public static final Set<MachineState> TRANSITIONAL = EnumSet.of(CREATING, CONFIGURING, DRAINING, DELETING);

    private States() {}

    public static boolean isTransitional(MachineState state) {
        return TRANSITIONAL.contains(state);
    }

    /** "Settled" = not in a transitional state (FAILED counts as settled: nothing moves it). */
    public static boolean isSettled(MachineState state) {
        return !isTransitional(state);
    }

    /** host "set": a provider label and a non-empty reference. */
    public static boolean hostSet(Machine m) {
        return m.hasHost()
                && !m.getHost().getRef().isEmpty()
                && !m.getHost().getProvider().isEmpty();
    }

    /** host "empty": absent, or both fields empty. */
    public static boolean hostEmpty(Machine m) {
        HostRef h = m.getHost();
        return !m.hasHost() || (h.getRef().isEmpty() && h.getProvider().isEmpty());
    }

    /** A one-line view of a snapshot for failure messages. */
    public static String describe(Machine m) {
        if (m == null) {
            return "<none>";
        }
        return m.getId() + " state=" + m.getState()
                + " host="
                + (m.hasHost() ? m.getHost().getProvider() + "/" + m.getHost().getRef() : "<unset>")
                + " cluster='" + m.getCluster() + "'"
                + " metadata=" + m.getShardMetadataCount() + " entries"
                + (m.getLastError().isEmpty() ? "" : " last_error='" + m.getLastError() + "'");
    }
}
