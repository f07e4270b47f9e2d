package dev.bigfleet.proxmox.backend.proxmox;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an instance type changes on a clone beyond cores and memory: the boot disk's size (grown,
 * never shrunk), the first NIC's bridge and VLAN, the CPU model, and the PCI devices passed through
 * by mapping.
 */
record VmShape(
        OptionalLong diskGib,
        Optional<String> bridge,
        Optional<Integer> vlan,
        Optional<String> cpuType,
        List<PciDevice> pci) {
    static final VmShape TEMPLATE =
            new VmShape(OptionalLong.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of());

    VmShape {
        pci = List.copyOf(pci);
    }

    /** The PCI mappings the type passes through, by name, with how many devices of each one VM takes. */
    java.util.Map<String, Integer> mappings() {
        java.util.Map<String, Integer> m = new java.util.TreeMap<>();
        pci.forEach(d -> m.merge(d.mapping(), 1, Integer::sum));
        return m;
    }

    static VmShape of(TypeSettings s) {
        return new VmShape(
                s.diskGib(),
                s.bridge(),
                s.vlan().isPresent() ? Optional.of(s.vlan().getAsInt()) : Optional.empty(),
                s.cpuType(),
                s.pci());
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
