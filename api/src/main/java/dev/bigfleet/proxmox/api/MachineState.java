package dev.bigfleet.proxmox.api;

/** Where a machine is in its lifecycle. Stable states are where transitions start and end. */
public enum MachineState {
    SPECULATIVE,
    CREATING,
    IDLE,
    CONFIGURING,
    CONFIGURED,
    DRAINING,
    DELETING,
    FAILED;

    public boolean isTransitional() {
        return this == CREATING || this == CONFIGURING || this == DRAINING || this == DELETING;
    }
}
