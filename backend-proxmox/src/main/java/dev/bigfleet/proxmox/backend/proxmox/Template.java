package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A template as its config describes it, read once at startup: where it lives, its drives (ISOs
 * and cloud-init drives included: they decide whether a clone can go to another node), its boot
 * disk, its NICs, and every line of its config.
 */
record Template(
        long vmid,
        String node,
        List<TemplateDisk> disks,
        Map<String, NicSpec> nics,
        Optional<String> bootKey,
        boolean agentEnabled,
        Map<String, String> entries) {
    Template {
        disks = List.copyOf(disks);
        nics = Map.copyOf(nics);
        entries = Map.copyOf(entries);
    }

    /** A line of the template's config, which every clone inherits ({@code hugepages}, {@code affinity}, ...). */
    Optional<String> entry(String key) {
        return Optional.ofNullable(entries.get(key));
    }

    static Template of(long vmid, String node, VmConfig config) {
        List<TemplateDisk> disks = new ArrayList<>();
        Map<String, NicSpec> nics = new LinkedHashMap<>();
        config.entries().keySet().stream().sorted().forEach(k -> {
            String v = config.entries().get(k);
            TemplateDisk.parse(k, v).ifPresent(disks::add);
            if (k.matches("net\\d+")) {
                NicSpec.parse(v).ifPresent(n -> nics.put(k, n));
            }
        });
        return new Template(vmid, node, disks, nics, bootDisk(config, disks), agentEnabled(config), config.entries());
    }

    /** Its {@code agent} line enables the guest agent ({@code 1}, or {@code enabled=1,...}). */
    private static boolean agentEnabled(VmConfig config) {
        return config.entry("agent")
                .map(v -> {
                    String first = v.split(",", 2)[0].trim();
                    return first.equals("1") || first.equals("enabled=1");
                })
                .orElse(false);
    }

    /** The boot order's first data disk, else the legacy {@code bootdisk}, else the first data disk. */
    private static Optional<String> bootDisk(VmConfig config, List<TemplateDisk> disks) {
        List<String> order = new ArrayList<>();
        config.entry("boot").ifPresent(boot -> {
            for (String part : boot.split(",", -1)) {
                if (part.startsWith("order=")) {
                    order.addAll(List.of(part.substring(6).split(";", -1)));
                }
            }
        });
        config.entry("bootdisk").ifPresent(order::add);
        for (String prefix : List.of("ide", "scsi", "virtio", "sata")) {
            disks.stream()
                    .map(TemplateDisk::key)
                    .filter(k -> k.startsWith(prefix))
                    .sorted()
                    .forEach(order::add);
        }
        for (String key : order) {
            Optional<TemplateDisk> d = disks.stream()
                    .filter(x -> x.key().equals(key) && x.dataDisk())
                    .findFirst();
            if (d.isPresent()) {
                return Optional.of(key);
            }
        }
        return Optional.empty();
    }

    Optional<TemplateDisk> bootDisk() {
        return bootKey.flatMap(
                k -> disks.stream().filter(d -> d.key().equals(k)).findFirst());
    }

    /** Whether it has a cloud-init drive, which Proxmox fills from the clone's {@code ipconfigN} and {@code nameserver}. */
    boolean hasCloudInitDrive() {
        return disks.stream().anyMatch(TemplateDisk::cloudinit);
    }

    /** The storages its drives are on. */
    List<String> storages() {
        return disks.stream().map(TemplateDisk::storage).distinct().toList();
    }
}
