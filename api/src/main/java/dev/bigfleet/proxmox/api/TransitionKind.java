package dev.bigfleet.proxmox.api;

import java.util.Locale;

/** The four legal edges of the lifecycle, each with its source, transitional and target state. */
public enum TransitionKind {
    CREATE(MachineState.SPECULATIVE, MachineState.CREATING, MachineState.IDLE),
    CONFIGURE(MachineState.IDLE, MachineState.CONFIGURING, MachineState.CONFIGURED),
    DRAIN(MachineState.CONFIGURED, MachineState.DRAINING, MachineState.IDLE),
    DELETE(MachineState.IDLE, MachineState.DELETING, MachineState.SPECULATIVE);

    private final MachineState source;
    private final MachineState transitional;
    private final MachineState target;

    TransitionKind(MachineState source, MachineState transitional, MachineState target) {
        this.source = source;
        this.transitional = transitional;
        this.target = target;
    }

    public MachineState source() {
        return source;
    }

    public MachineState transitional() {
        return transitional;
    }

    public MachineState target() {
        return target;
    }

    /** The lower-case name used in logs, errors and metric labels: {@code create}, {@code drain}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind whose transitional state this is, for recovering interrupted work. */
    public static TransitionKind forTransitional(MachineState state) {
        for (TransitionKind kind : values()) {
            if (kind.transitional == state) {
                return kind;
            }
        }
        throw new IllegalArgumentException(state + " is not a transitional state");
    }
}
