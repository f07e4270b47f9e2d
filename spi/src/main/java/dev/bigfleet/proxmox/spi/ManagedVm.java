package dev.bigfleet.proxmox.spi;

import java.util.Optional;

/** A VM the backend manages. {@code machineId} is empty for a managed VM that carries none. */
public record ManagedVm(Optional<String> machineId, String node, long vmid, boolean running) {
    public String hostRef() {
        return node + "/" + vmid;
    }
}
