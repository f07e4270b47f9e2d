package dev.bigfleet.proxmox.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * A VM the backend manages. {@code machineId} is empty for a managed VM that carries none; {@code
 * binding} is what the VM says it is serving (see {@link BindingRecorder}), empty for an unbound VM
 * or a backend that keeps no bindings.
 */
public record ManagedVm(
        Optional<String> machineId, String node, long vmid, boolean running, Optional<VmBinding> binding) {
    public ManagedVm {
        Objects.requireNonNull(machineId, "machineId");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(binding, "binding");
    }

    /** An unbound VM, or one of a backend that keeps no bindings. */
    public ManagedVm(Optional<String> machineId, String node, long vmid, boolean running) {
        this(machineId, node, vmid, running, Optional.empty());
    }

    public String hostRef() {
        return node + "/" + vmid;
    }
}
