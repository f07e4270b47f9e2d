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
        Optional<String> pool,
        List<DiskSpec> disks,
        Optional<String> bios,
        Optional<String> efiStorage,
        Optional<String> tpmStorage) {
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
            Optional.empty(),
            List.of(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    VmShape {
        disks = List.copyOf(disks);
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
                s.pool(),
                s.disks(),
                s.bios(),
                s.efiStorage(),
                s.tpmStorage());
    }

    /**
     * The drives Proxmox allocates on the clone, key to {@code STORAGE:SIZE} value: the type's data
     * disks in the first slots of their bus the template leaves free, the EFI vars disk ({@code
     * efitype=4m}, no Secure Boot keys enrolled) and the TPM 2.0 state disk, each unless the
     * template has one (its clone has it then).
     *
     * @throws IllegalArgumentException naming {@code disks} when a bus has no free slot left
     */
    Map<String, String> newDrives(Template template) {
        Map<String, String> out = new LinkedHashMap<>();
        java.util.Set<String> taken = new java.util.HashSet<>();
        template.disks().forEach(d -> taken.add(d.key()));
        template.entries().keySet().stream()
                .filter(k -> k.matches("(scsi|virtio)\\d+"))
                .forEach(taken::add);
        for (int i = 0; i < disks.size(); i++) {
            DiskSpec d = disks.get(i);
            String key = null;
            for (int n = 0; n < DiskSpec.slots(d.bus()) && key == null; n++) {
                if (!taken.contains(d.bus() + n)) {
                    key = d.bus() + n;
                }
            }
            if (key == null) {
                throw new IllegalArgumentException("disks[" + i + "]: template " + template.vmid() + " leaves no "
                        + d.bus() + " slot free (" + d.bus() + "0 to " + d.bus() + (DiskSpec.slots(d.bus()) - 1) + ")");
            }
            taken.add(key);
            out.put(key, d.allocation());
        }
        if (efiStorage.isPresent() && !template.entries().containsKey("efidisk0")) {
            out.put("efidisk0", efiStorage.get() + ":1,efitype=4m,pre-enrolled-keys=0");
        }
        if (tpmStorage.isPresent() && !template.entries().containsKey("tpmstate0")) {
            out.put("tpmstate0", tpmStorage.get() + ":1,version=v2.0");
        }
        return out;
    }

    /** Bytes the drives of {@link #newDrives} take, per storage. */
    Map<String, Long> newDriveBytes(Template template) {
        Map<String, Long> out = new LinkedHashMap<>();
        disks.forEach(d -> out.merge(d.storage(), d.sizeBytes(), Long::sum));
        if (efiStorage.isPresent() && !template.entries().containsKey("efidisk0")) {
            out.merge(efiStorage.get(), EFI_TPM_BYTES, Long::sum);
        }
        if (tpmStorage.isPresent() && !template.entries().containsKey("tpmstate0")) {
            out.merge(tpmStorage.get(), EFI_TPM_BYTES, Long::sum);
        }
        return out;
    }

    /** What an EFI vars disk or TPM state disk takes at most (4 MiB: an LVM extent). */
    static final long EFI_TPM_BYTES = 4L << 20;

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
