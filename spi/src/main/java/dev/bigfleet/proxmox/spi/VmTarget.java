package dev.bigfleet.proxmox.spi;

import java.util.Objects;

/** A machine's VM as the engine knows it: the machine id it must carry, and where it was last seen. */
public record VmTarget(String machineId, String node, long vmid) {
    public VmTarget {
        Objects.requireNonNull(machineId, "machineId");
        Objects.requireNonNull(node, "node");
    }

    public String hostRef() {
        return node + "/" + vmid;
    }
}
