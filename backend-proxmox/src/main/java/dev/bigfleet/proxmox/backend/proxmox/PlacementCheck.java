package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.NodeBridge;
import dev.bigfleet.proxmox.backend.proxmox.client.PciMapping;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.StorageStatus;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Startup checks of one placement against the cluster, so no Create sends a request Proxmox is
 * certain to refuse: the node reaches every volume of the template (on another node: all of them
 * shared, ISOs and cloud-init drives included, as qemu-server's clone checks), a linked clone's
 * disks are on a storage type that links, the boot disk only grows, the bridges and CPU model
 * exist on the node, the storages of the type's new drives hold disk images there, and the PCI mappings the type passes through map devices there.
 * It also learns the zones of the SDN VNets the NICs are on ({@link #sdnPaths(Placement)}), for
 * the {@code SDN.Use} paths {@link PrivilegeCheck} checks.
 */
final class PlacementCheck {
    private static final Logger log = LoggerFactory.getLogger(PlacementCheck.class);

    /** Storage types whose base volumes can be linked-cloned (pve-storage's {@code clone} feature). */
    static final Set<String> LINKABLE =
            Set.of("lvmthin", "zfspool", "rbd", "dir", "nfs", "cifs", "glusterfs", "cephfs", "btrfs");

    private final PveClient api;
    private final StorageStatusCache storages;
    /** Each node's bridges (and VNets) the token may use, by name, with their type. */
    private final Map<String, Map<String, NodeBridge>> bridges = new HashMap<>();

    private final Map<String, Set<String>> cpuModels = new HashMap<>();
    private List<PciMapping> pciMappings;
    /** The VNets' zones, once read (only when a NIC is on a VNet, or on a bridge a node lacks). */
    private SdnPaths sdnPaths;
    /** The VNets a warning was logged for: listed on a node, but not among the VNets the token sees. */
    private final Set<String> vnetsOfUnknownZone = new HashSet<>();

    PlacementCheck(PveClient api, StorageStatusCache storages) {
        this.api = api;
        this.storages = storages;
    }

    /** Storage types pve-storage uploads files to (its upload refuses the others). */
    static final Set<String> UPLOADABLE = Set.of("dir", "nfs", "cifs", "glusterfs", "cephfs", "btrfs");

    void check(Placement p, String where, String modeSource) {
        storage(p, where, modeSource);
        shape(p);
        drives(p);
        pci(p);
        seedStorage(p);
    }

    /**
     * The drives the type adds ({@code disks}, {@code efi_storage}, {@code tpm}): a free slot on each
     * disk's bus, and each storage active on the node, holding VM disk images, and big enough for
     * all of one VM's new drives on it.
     */
    void drives(Placement p) {
        String entry = "--instance-types \"" + p.type().name() + "\": ";
        VmShape s = p.shape();
        try {
            s.newDrives(p.template());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(entry + e.getMessage(), e);
        }
        Map<String, String> keyOf = new java.util.LinkedHashMap<>();
        for (int i = 0; i < s.disks().size(); i++) {
            keyOf.putIfAbsent(s.disks().get(i).storage(), "disks[" + i + "]");
        }
        s.efiStorage().ifPresent(id -> keyOf.putIfAbsent(id, "efi_storage"));
        s.tpmStorage().ifPresent(id -> keyOf.putIfAbsent(id, "tpm"));
        Map<String, Long> bytes = s.newDriveBytes(p.template());
        for (Map.Entry<String, String> k : keyOf.entrySet()) {
            String storage = k.getKey();
            String at = entry + k.getValue() + ": storage " + storage;
            StorageStatus there = storage(p.node(), storage)
                    .filter(StorageStatus::usable)
                    .orElseThrow(() -> new IllegalArgumentException(
                            at + " is not active on node " + p.node() + " (or not visible to the API token)"));
            if (!there.content().contains("images")) {
                throw new IllegalArgumentException(at + " on node " + p.node() + " does not hold VM disk images"
                        + " (its content is " + String.join(",", there.content()) + "); name a storage with"
                        + " \"Disk image\" in its content");
            }
            long wanted = bytes.getOrDefault(storage, 0L);
            if (there.total() > 0 && wanted > there.total()) {
                throw new IllegalArgumentException(at + " on node " + p.node() + " holds "
                        + StorageGate.gib(there.total()) + " in all; one VM of the type puts "
                        + StorageGate.gib(wanted) + " of new drives on it");
            }
        }
    }

    /** A nocloud type's seed storage is active on the node, holds ISO images and takes uploads. */
    void seedStorage(Placement p) {
        Optional<String> seed = p.bootstrap().seedStorage();
        if (seed.isEmpty()) {
            return;
        }
        String entry = "--instance-types \"" + p.type().name() + "\": seed_storage: ";
        StorageStatus there = storage(p.node(), seed.get())
                .filter(StorageStatus::usable)
                .orElseThrow(() -> new IllegalArgumentException(entry + "storage " + seed.get()
                        + " is not active on node " + p.node() + " (or not visible to the API token)"));
        if (!there.content().contains("iso")) {
            throw new IllegalArgumentException(entry + "storage " + seed.get() + " on node " + p.node()
                    + " does not hold ISO images (its content is " + String.join(",", there.content())
                    + "); add \"ISO image\" to its content, or name a storage that has it");
        }
        if (!UPLOADABLE.contains(there.type())) {
            throw new IllegalArgumentException(entry + "storage " + seed.get() + " is of type " + there.type()
                    + ", which Proxmox does not upload files to; name a directory, NFS, CIFS or CephFS storage");
        }
    }

    /** The node reaches the template's volumes and the storages clones are written to, and links where asked. */
    void storage(Placement p, String where, String modeSource) {
        Template t = p.template();
        reachable(p, where);
        if (p.mode() == CloneMode.LINKED) {
            for (TemplateDisk d : t.disks()) {
                if (d.cdrom()) {
                    continue;
                }
                String type =
                        storage(t.node(), d.storage()).map(StorageStatus::type).orElse("?");
                if (!LINKABLE.contains(type)) {
                    throw new IllegalArgumentException(modeSource + ": instance type "
                            + p.type().name() + " on node "
                            + p.node() + ": template " + t.vmid() + "'s " + d.key() + " is on storage " + d.storage()
                            + " (type " + type + "), which cannot make linked clones (LVM-thin, ZFS, RBD and"
                            + " directory storages can); use full clones for it");
                }
            }
        }
    }

    /**
     * Every PCI mapping the type names exists and maps, on the placement's node, at least as many
     * devices as one VM takes (Proxmox would refuse the VM's start: "PCI device mapping not found").
     */
    void pci(Placement p) {
        Map<String, Integer> wanted = p.shape().mappings();
        if (wanted.isEmpty()) {
            return;
        }
        if (pciMappings == null) {
            pciMappings = call(api::pciMappings);
        }
        String entry = "--instance-types \"" + p.type().name() + "\": pci: ";
        for (Map.Entry<String, Integer> w : wanted.entrySet()) {
            Optional<PciMapping> m =
                    pciMappings.stream().filter(x -> x.id().equals(w.getKey())).findFirst();
            if (m.isEmpty()) {
                throw new IllegalArgumentException(entry + "PCI mapping " + w.getKey() + " does not exist (or the token"
                        + " may not see it: Mapping.Use on /mapping/pci/" + w.getKey() + ")");
            }
            if (m.get().devicesOn(p.node()) < w.getValue()) {
                throw new IllegalArgumentException(entry + "PCI mapping " + w.getKey() + " maps "
                        + m.get().devicesOn(p.node()) + " device(s) on node " + p.node() + "; one VM of the type takes "
                        + w.getValue());
            }
        }
    }

    /**
     * Where the NICs of the placements checked so far need {@code SDN.Use}: VNets in their zones
     * when a NIC was on one, else every bridge in {@code localnetwork}.
     */
    SdnPaths sdnPaths() {
        return sdnPaths == null ? SdnPaths.LOCAL : sdnPaths;
    }

    /**
     * Where the NICs of {@code p} (the type's and its template's) need {@code SDN.Use}: when its node
     * lists one of their bridges as a VNet, the VNets are read ({@code GET /cluster/sdn/vnets}, once
     * for all placements) for its zone.
     */
    SdnPaths sdnPaths(Placement p) {
        Map<String, NodeBridge> onNode = bridgesOn(p.node());
        Set<String> named = new LinkedHashSet<>();
        p.shape().networks().forEach(n -> named.add(n.bridge()));
        p.template().nics().values().forEach(n -> n.bridge().ifPresent(named::add));
        for (String bridge : named) {
            if (onNode.get(bridge) == null || !"vnet".equals(onNode.get(bridge).type())) {
                continue;
            }
            SdnPaths known = vnets();
            if (known.listed() && known.vnetZone(bridge).isEmpty() && vnetsOfUnknownZone.add(bridge)) {
                log.warn(
                        "bridge {} on node {} is an SDN VNet whose zone the token may not see (GET"
                                + " /cluster/sdn/vnets lists a VNet to SDN.Audit on /sdn/zones/<zone>/{}): its"
                                + " SDN.Use is checked on {} as for a node's bridge",
                        bridge,
                        p.node(),
                        bridge,
                        known.usePath(bridge, Optional.empty()));
            }
        }
        return sdnPaths();
    }

    private SdnPaths vnets() {
        if (sdnPaths == null) {
            sdnPaths = call(() -> SdnPaths.read(api));
        }
        return sdnPaths;
    }

    /** Where a NIC on {@code bridge}, which a node does not list, would need {@code SDN.Use}. */
    private String missingBridgePath(String bridge) {
        try {
            return vnets().usePath(bridge, Optional.empty());
        } catch (RuntimeException e) {
            // the listing failing is not what is wrong: the missing bridge is reported
            return sdnPaths().usePath(bridge, Optional.empty());
        }
    }

    private Map<String, NodeBridge> bridgesOn(String node) {
        return bridges.computeIfAbsent(node, n -> call(() -> api.nodeBridges(n)));
    }

    /** The devices each PCI mapping maps on each node, as startup read them (empty when no type uses one). */
    List<PciMapping> pciMappings() {
        return pciMappings == null ? List.of() : pciMappings;
    }

    private void reachable(Placement p, String where) {
        Template t = p.template();
        boolean elsewhere = !p.node().equals(t.node());
        for (TemplateDisk d : t.disks()) {
            Optional<StorageStatus> there = storage(p.node(), d.storage());
            if (there.isEmpty() || !there.get().usable()) {
                throw new IllegalArgumentException(where + "template " + t.vmid() + "'s " + d.key() + " is on storage "
                        + d.storage() + ", which is not active on node " + p.node() + " (or not visible to the API"
                        + " token)");
            }
            if (elsewhere && !there.get().shared()) {
                throw new IllegalArgumentException(where + "template " + t.vmid() + " is on node " + t.node()
                        + " and its " + d.key() + " (" + d.volid() + ") is on " + d.storage() + ", storage local to "
                        + t.node() + " that node " + p.node() + " cannot reach; give each node its own template"
                        + " (templates or template_tags, --template-tags) or move its volumes to shared storage");
            }
        }
        for (String storage : p.writes().keySet()) {
            if (storage(t.node(), storage).filter(StorageStatus::usable).isEmpty()) {
                throw new IllegalArgumentException(where + "clones are written to storage " + storage
                        + ", which is not active on node " + t.node() + " (or not visible to the API token)");
            }
        }
    }

    /** The boot disk only grows; the bridges and CPU model exist on the node. */
    void shape(Placement p) {
        String entry = "--instance-types \"" + p.type().name() + "\": ";
        VmShape s = p.shape();
        Template t = p.template();
        if (s.diskGib().isPresent()) {
            TemplateDisk boot = t.bootDisk()
                    .orElseThrow(() -> new IllegalArgumentException(
                            entry + "disk_gib: template " + t.vmid() + " has no boot disk to grow"));
            if (s.diskGib().getAsLong() << 30 < boot.sizeBytes()) {
                throw new IllegalArgumentException(
                        entry + "disk_gib: " + s.diskGib().getAsLong() + " GiB is smaller"
                                + " than template " + t.vmid() + "'s boot disk " + boot.key() + " ("
                                + StorageGate.gib(boot.sizeBytes()) + "); disks are grown, never shrunk");
            }
        }
        Map<String, NodeBridge> onNode = bridgesOn(p.node());
        sdnPaths(p);
        String listed = String.join(", ", onNode.keySet());
        for (int i = 0; i < s.networks().size(); i++) {
            NetworkSpec nic = s.networks().get(i);
            String key = p.type().settings().containsKey("networks") ? "networks[" + i + "]" : "bridge";
            if (!onNode.containsKey(nic.bridge())) {
                throw new IllegalArgumentException(entry + key + ": node " + p.node() + " has no bridge "
                        + nic.bridge() + " (it has " + listed + "), or the token lacks SDN.Use on "
                        + missingBridgePath(nic.bridge()));
            }
            if (nic.addresses().isPresent() && !p.bootstrap().nocloud() && !t.hasCloudInitDrive()) {
                throw new IllegalArgumentException(entry + key + ": addresses: a static address reaches the guest"
                        + " through cloud-init: give the type bootstrap \"nocloud\" (its seed's network-config) or"
                        + " template " + t.vmid() + " a cloud-init drive (qm set " + t.vmid() + " --ide2"
                        + " local-lvm:cloudinit), whose ipconfig" + i + " Proxmox fills");
            }
            Optional<NicSpec> fromTemplate = Optional.ofNullable(t.nics().get("net" + i));
            int bridgeMtu = onNode.get(nic.bridge()).mtu();
            if (nic.mtu().filter(m -> m != 1 && m > bridgeMtu).isPresent()) {
                throw new IllegalArgumentException(entry + key + ": mtu "
                        + nic.mtu().get() + " is bigger than the MTU"
                        + " of bridge " + nic.bridge() + " on node " + p.node() + " (" + bridgeMtu + "); Proxmox"
                        + " would not start the VM: lower it, or give 1 for the bridge's");
            }
            String model = nic.modelOver(fromTemplate);
            if (!model.equals("virtio") && nic.virtioOnlyKeys().isPresent()) {
                throw new IllegalArgumentException(
                        entry + key + ": " + nic.virtioOnlyKeys().get()
                                + " is for virtio NICs only, and template " + t.vmid() + "'s net" + i + " is " + model
                                + " (set \"model\": \"virtio\")");
            }
        }
        for (Map.Entry<String, NicSpec> nic : t.nics().entrySet()) {
            if (Integer.parseInt(nic.getKey().substring(3)) < s.networks().size()) {
                continue;
            }
            Optional<String> b = nic.getValue().bridge();
            if (b.isPresent() && !onNode.containsKey(b.get())) {
                throw new IllegalArgumentException(entry + "template " + t.vmid() + "'s " + nic.getKey()
                        + " is on bridge " + b.get() + ", which node " + p.node() + " does not have (it has "
                        + listed + "); set bridge for the type");
            }
        }
        templateOnly(entry, "hugepages", "hugepages", s.hugepages(), t);
        templateOnly(entry, "cpu_affinity", "affinity", s.cpuAffinity(), t);
        if (s.hugepages().isPresent()) {
            boolean numa =
                    s.numa().orElse(t.entry("numa").map(v -> v.equals("1")).orElse(false));
            if (!numa) {
                throw new IllegalArgumentException(entry + "hugepages: Proxmox starts a VM with hugepages only with"
                        + " NUMA (numa needs to be enabled to use hugepages); set \"numa\": true for the type or"
                        + " numa on template " + t.vmid());
            }
            long memory = p.type().memoryMib();
            if (s.hugepages().get().equals("1024") && memory % 1024 != 0) {
                throw new IllegalArgumentException(entry + "hugepages: memory_mib " + memory
                        + " is not a multiple of 1024, the size of the 1 GiB hugepages the type asks for");
            }
        }
        if (s.cpuType().isPresent()) {
            Set<String> models = cpuModels.computeIfAbsent(p.node(), n -> call(() -> api.cpuModels(n)));
            if (!models.contains(s.cpuType().get())) {
                throw new IllegalArgumentException(entry + "cpu_type: node " + p.node() + " offers no CPU model \""
                        + s.cpuType().get() + "\" (the names of GET /nodes/" + p.node() + "/capabilities/qemu/cpu,"
                        + " e.g. host or x86-64-v2-AES)");
            }
        }
    }

    /**
     * A setting qemu-server lets only root@pam write ({@code check_vm_modify_config_perm} names no
     * privilege for it, so no API token can): the type can only require it of its template, whose
     * clones inherit it.
     */
    private static void templateOnly(String entry, String key, String configKey, Optional<String> wanted, Template t) {
        if (wanted.isEmpty() || wanted.equals(t.entry(configKey))) {
            return;
        }
        throw new IllegalArgumentException(entry + key + ": template " + t.vmid() + " has "
                + t.entry(configKey).map(v -> configKey + " " + v).orElse("no " + configKey) + ", not " + configKey
                + " " + wanted.get() + "; Proxmox lets only root@pam write " + configKey + ", so no API token can"
                + " set it on a clone: set it on the template (qm set " + t.vmid() + " --" + configKey + " "
                + wanted.get() + ") and every clone inherits it");
    }

    private Optional<StorageStatus> storage(String node, String storage) {
        return call(() -> storages.get(node)).find(storage);
    }

    private interface Call<T> {
        T run();
    }

    private static <T> T call(Call<T> c) {
        try {
            return c.run();
        } catch (PveApiException e) {
            throw StartupCheck.failure("", e);
        }
    }
}
