package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an instance type changes on a clone beyond cores and memory: the boot disk's size (grown,
 * never shrunk), the first NIC's bridge and VLAN, and the CPU model.
 */
record VmShape(OptionalLong diskGib, Optional<String> bridge, Optional<Integer> vlan, Optional<String> cpuType) {
    static final VmShape TEMPLATE =
            new VmShape(OptionalLong.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    static VmShape of(TypeSettings s) {
        return new VmShape(
                s.diskGib(),
                s.bridge(),
                s.vlan().isPresent() ? Optional.of(s.vlan().getAsInt()) : Optional.empty(),
                s.cpuType());
    }

    /** The {@code net0} to write, when the type moves the first NIC. */
    Optional<String> net0(Template template) {
        if (bridge.isEmpty()) {
            return Optional.empty();
        }
        NicSpec nic =
                template.nics().getOrDefault("net0", NicSpec.parse("virtio").orElseThrow());
        return Optional.of(nic.render(bridge.get(), vlan));
    }

    /** The boot disk's size after the clone: the type's, or the template's when it asks for none. */
    long bootDiskBytes(TemplateDisk boot) {
        return diskGib.isPresent() ? Math.max(boot.sizeBytes(), diskGib.getAsLong() << 30) : boot.sizeBytes();
    }
}
