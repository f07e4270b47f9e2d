package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an instance type changes on a clone beyond cores and memory: the boot disk's size (grown,
 * never shrunk), the NICs ({@code net0} on, from the type's {@code networks} or its first NIC's
 * {@code bridge} and {@code vlan}), the CPU model, the PCI devices passed through by mapping, NUMA,
 * start on boot, and the type's own tags beside the provider's markers; and what it requires of its
 * template because only root@pam may write it on a clone: hugepages and CPU affinity; and the pool
 * its clones join, when not {@code --proxmox-pool}.
 */
record VmShape(
        OptionalLong diskGib,
        List<NetworkSpec> networks,
        Optional<String> cpuType,
        List<PciDevice> pci,
        Optional<Boolean> numa,
        Optional<Boolean> onboot,
        List<String> userTags,
        Optional<String> hugepages,
        Optional<String> cpuAffinity,
        Optional<String> pool) {
    static final VmShape TEMPLATE = new VmShape(
            OptionalLong.empty(),
            List.of(),
            Optional.empty(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    VmShape {
        networks = List.copyOf(networks);
        pci = List.copyOf(pci);
        userTags = List.copyOf(userTags);
    }

    /** The provider's markers and the type's own tags beside them. */
    TagList withUserTags(TagList markers) {
        TagList out = markers;
        for (String tag : userTags) {
            out = out.with(tag);
        }
        return out;
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
                s.networks(),
                s.cpuType(),
                s.pci(),
                s.numa(),
                s.onboot(),
                s.tags(),
                s.hugepages(),
                s.cpuAffinity(),
                s.pool());
    }

    /** The {@code net0} to write, when the type sets the first NIC. */
    Optional<String> net0(Template template) {
        return networks.isEmpty() ? Optional.empty() : Optional.of(nic(template, 0));
    }

    /** The NICs after the first the type sets: {@code net1} on, in order. */
    Map<String, String> moreNics(Template template) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 1; i < networks.size(); i++) {
            out.put("net" + i, nic(template, i));
        }
        return out;
    }

    private String nic(Template template, int index) {
        return networks.get(index).render(Optional.ofNullable(template.nics().get("net" + index)));
    }

    /** The boot disk's size after the clone: the type's, or the template's when it asks for none. */
    long bootDiskBytes(TemplateDisk boot) {
        return diskGib.isPresent() ? Math.max(boot.sizeBytes(), diskGib.getAsLong() << 30) : boot.sizeBytes();
    }
}
