package dev.bigfleet.proxmox.pvesim;

/**
 * A snapshot of one task. {@code exitStatus} is null while the task runs; {@code id} is the VMID
 * the task was started for (the source VMID for a clone).
 */
public record TaskView(String upid, String node, String type, String id, boolean running, String exitStatus) {

    public boolean ok() {
        return "OK".equals(exitStatus);
    }
}
