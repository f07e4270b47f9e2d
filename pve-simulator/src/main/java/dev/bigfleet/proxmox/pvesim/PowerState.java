package dev.bigfleet.proxmox.pvesim;

/** Whether a QEMU process exists for the VM, as {@code status/current} reports it. */
public enum PowerState {
    RUNNING,
    STOPPED;

    String apiName() {
        return this == RUNNING ? "running" : "stopped";
    }
}
