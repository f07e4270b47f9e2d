package dev.bigfleet.proxmox.backend.fake;

/** Whether a simulated VM is running; the fake has no paused or hibernated states. */
public enum PowerState {
    RUNNING,
    STOPPED
}
