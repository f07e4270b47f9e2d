package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON Schema of each {@link TypeSettings} key's value, which the provider checks {@code
 * --instance-types} entries against and publishes for editors. {@code template_vmid} is the
 * provider's own key and is described there. The ranges and patterns are those {@link TypeSettings}
 * enforces.
 */
final class TypeSettingSchemas {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TypeSettingSchemas() {}

    /** Key to schema, as JSON text. */
    static Map<String, String> all() {
        Map<String, ObjectNode> schemas = new LinkedHashMap<>();
        ObjectNode templates = described(
                "Template per node",
                "Node name to the VMID of the template to clone on that node, e.g. {\"pve1\": 9001}, for"
                        + " node-local storage. At most one of templates, template_tags and template_vmid.");
        templates.put("type", "object").put("minProperties", 1);
        templates
                .putObject("additionalProperties")
                .put("title", "Template VMID")
                .put("description", "The VMID of the template on this node.")
                .put("type", "integer")
                .put("minimum", 100)
                .put("maximum", 999_999_999);
        schemas.put("templates", templates);

        ObjectNode tags = described(
                "Template tags",
                "On each node, clone the one template carrying all these Proxmox tags; wins over"
                        + " --template-tags and --template-vmid. At most one of templates, template_tags and"
                        + " template_vmid.");
        tags.put("type", "array").put("minItems", 1);
        tags.putObject("items")
                .put("title", "Tag")
                .put("description", "A Proxmox tag, compared lower-cased.")
                .put("type", "string")
                .put("pattern", "^[A-Za-z0-9_][A-Za-z0-9_+.-]*$");
        schemas.put("template_tags", tags);

        ObjectNode cloneMode = described(
                "Clone mode", "full copies the template's disks, linked makes a thin copy; wins over --clone-mode.");
        cloneMode.put("type", "string").putArray("enum").add("full").add("linked");
        schemas.put("clone_mode", cloneMode);

        ObjectNode disk = described(
                "Disk size (GiB)", "The size in GiB the clone's boot disk is grown to (a disk is never shrunk).");
        disk.put("type", "integer").put("minimum", 1).put("maximum", 128L * 1024);
        schemas.put("disk_gib", disk);

        ObjectNode bridge = described(
                "Bridge", "The bridge of the clone's first NIC, e.g. \"vmbr0\" (or networks, for every NIC).");
        bridge.put("type", "string").put("pattern", "^[-_.A-Za-z0-9]+$");
        schemas.put("bridge", bridge);

        ObjectNode vlan = described("VLAN tag", "The VLAN tag of the clone's first NIC; needs bridge.");
        vlan.put("type", "integer").put("minimum", 1).put("maximum", 4094);
        schemas.put("vlan", vlan);

        ObjectNode networks = described(
                "NICs",
                "The clone's NICs in order, the first is net0 (1 to 32): each on a bridge or SDN VNet, the rest of"
                        + " each as the template's NIC of that index (a plain virtio NIC past the template's), with a"
                        + " fresh MAC. The template's NICs past the list stay. Not with bridge and vlan.");
        networks.put("type", "array").put("minItems", 1).put("maxItems", NetworkSpec.MAX);
        ObjectNode nic = networks.putObject("items")
                .put("title", "NIC")
                .put("description", "One NIC of the clone.")
                .put("type", "object")
                .put("additionalProperties", false);
        nic.putArray("required").add("bridge");
        ObjectNode nicKeys = nic.putObject("properties");
        nicKeys.putObject("bridge")
                .put("title", "Bridge")
                .put("description", "The bridge or SDN VNet the NIC is on, e.g. \"vmbr0\".")
                .put("type", "string")
                .put("pattern", "^[-_.A-Za-z0-9]+$");
        nicKeys.putObject("vlan")
                .put("title", "VLAN tag")
                .put("description", "The NIC's VLAN tag; untagged without it.")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", 4094);
        ObjectNode mtu = nicKeys.putObject("mtu")
                .put("title", "MTU")
                .put(
                        "description",
                        "The NIC's MTU, " + NetworkSpec.MIN_MTU
                                + " to 65520, or 1 for the bridge's (virtio NICs only).");
        mtu.putArray("oneOf")
                .add(JSON.createObjectNode().put("const", 1))
                .add(JSON.createObjectNode()
                        .put("type", "integer")
                        .put("minimum", NetworkSpec.MIN_MTU)
                        .put("maximum", 65520));
        nicKeys.putObject("queues")
                .put("title", "Queues")
                .put("description", "The NIC's multiqueue count (virtio NICs only).")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", 64);
        nicKeys.putObject("firewall")
                .put("title", "Firewall")
                .put("description", "Whether Proxmox's firewall filters the NIC; the template's setting without it.")
                .put("type", "boolean");
        ObjectNode model = nicKeys.putObject("model")
                .put("title", "Model")
                .put("description", "The NIC model; the template's NIC's without it, virtio past its NICs.")
                .put("type", "string");
        NicSpec.MODELS.forEach(model.putArray("enum")::add);
        ObjectNode addressPool = nicKeys.putObject("addresses")
                .put("title", "Static addresses")
                .put(
                        "description",
                        "The IPv4 pool the NIC's static address is taken from, for guests without DHCP: each VM"
                                + " gets the lowest free address of the range, kept on the VM (its description and a"
                                + " bigfleet-ip- tag) and freed when it is deleted; delivered as the NoCloud seed's"
                                + " network-config, or as ipconfigN for a template's cloud-init drive.")
                .put("type", "object")
                .put("additionalProperties", false);
        addressPool.putArray("required").add("cidr");
        ObjectNode poolKeys = addressPool.putObject("properties");
        poolKeys.putObject("cidr")
                .put("title", "Subnet")
                .put("description", "The NIC's IPv4 subnet, /8 to /30, e.g. \"10.20.0.0/24\".")
                .put("type", "string")
                .put("pattern", "^\\d{1,3}(\\.\\d{1,3}){3}/\\d{1,2}$");
        poolKeys.putObject("range")
                .put("title", "Range")
                .put(
                        "description",
                        "The addresses handed out, FIRST-LAST within the subnet, e.g. \"10.20.0.10-10.20.0.99\";"
                                + " every host address of the subnet but the gateway without it.")
                .put("type", "string");
        poolKeys.putObject("gateway")
                .put("title", "Gateway")
                .put("description", "The default gateway, a host address of the subnet; none without it.")
                .put("type", "string");
        ObjectNode dns = poolKeys.putObject("dns")
                .put("title", "DNS servers")
                .put("description", "Up to 3 IPv4 DNS servers.")
                .put("type", "array")
                .put("maxItems", 3);
        dns.putObject("items")
                .put("title", "DNS server")
                .put("description", "The IPv4 address of a DNS server.")
                .put("type", "string");
        schemas.put("networks", networks);

        ObjectNode cpu = described("CPU model", "The clone's CPU model, e.g. \"host\" or \"x86-64-v2-AES\".");
        cpu.put("type", "string").put("pattern", "^[-_.+A-Za-z0-9]+$");
        schemas.put("cpu_type", cpu);

        ObjectNode pci = described(
                "PCI devices",
                "Devices passed through from Proxmox PCI resource mappings, one hostpciN each (1 to 16).");
        pci.put("type", "array").put("minItems", 1).put("maxItems", 16);
        ObjectNode device = pci.putObject("items")
                .put("title", "PCI device")
                .put("description", "One device of a PCI resource mapping.")
                .put("type", "object")
                .put("additionalProperties", false);
        device.putArray("required").add("mapping");
        ObjectNode deviceKeys = device.putObject("properties");
        deviceKeys
                .putObject("mapping")
                .put("title", "Mapping id")
                .put("description", "The id of a cluster PCI resource mapping, e.g. \"gpu-a100\".")
                .put("type", "string")
                .put("pattern", "^" + PciDevice.ID + "$");
        deviceKeys
                .putObject("pcie")
                .put("title", "PCIe")
                .put("description", "Pass the device as PCIe (the clone then gets the q35 machine type).")
                .put("type", "boolean")
                .put("default", false);
        schemas.put("pci", pci);

        ObjectNode numa = described("NUMA", "Whether the clone gets NUMA emulation (numa); the template's without it.");
        numa.put("type", "boolean");
        schemas.put("numa", numa);

        ObjectNode onboot = described(
                "Start on boot",
                "Whether Proxmox starts the clone when its node boots (onboot); the template's without it.");
        onboot.put("type", "boolean");
        schemas.put("onboot", onboot);

        ObjectNode userTags = described(
                "Tags",
                "Proxmox tags each clone carries beside the provider's markers, e.g. [\"team-a\"]; bigfleet and tags"
                        + " starting bigfleet- are the provider's own.");
        userTags.put("type", "array").put("minItems", 1).put("uniqueItems", true);
        userTags.putObject("items")
                .put("title", "Tag")
                .put("description", "A Proxmox tag, compared lower-cased.")
                .put("type", "string")
                .put("pattern", "^[A-Za-z0-9_][A-Za-z0-9_+.-]*$");
        schemas.put("tags", userTags);

        ObjectNode hugepages = described(
                "Hugepages",
                "The hugepages the type's VMs run on: 2 (MiB), 1024 (1 GiB) or \"any\". Proxmox lets only root@pam"
                        + " write hugepages, so the provider writes nothing: startup checks that the type's templates"
                        + " carry it (qm set VMID --hugepages 2) with NUMA, and clones inherit it.");
        hugepages.putArray("enum").add(2).add(1024).add("any");
        schemas.put("hugepages", hugepages);

        ObjectNode affinity = described(
                "CPU affinity",
                "The host cores the type's VMs run on, e.g. \"0-3,8\". Proxmox lets only root@pam write affinity,"
                        + " so the provider writes nothing: startup checks that the type's templates carry it (qm set"
                        + " VMID --affinity 0-3,8), and clones inherit it.");
        affinity.put("type", "string").put("pattern", "^\\d+(-\\d+)?(,\\d+(-\\d+)?)*$");
        schemas.put("cpu_affinity", affinity);

        ObjectNode pool = described(
                "Pool",
                "The Proxmox pool the type's clones join instead of --proxmox-pool, e.g. \"gpu\"; it must exist, and"
                        + " the token's privileges are checked on it.");
        pool.put("type", "string").put("pattern", "^" + TypeSettings.POOL_ID + "$");
        schemas.put("pool", pool);

        ObjectNode disks = described(
                "Data disks",
                "Disks added to each clone (1 to " + DiskSpec.MAX + "): each a new volume Proxmox allocates on its"
                        + " storage, in the first slot of its bus the template leaves free, removed with the VM.");
        disks.put("type", "array").put("minItems", 1).put("maxItems", DiskSpec.MAX);
        ObjectNode dataDisk = disks.putObject("items")
                .put("title", "Data disk")
                .put("description", "One data disk of the clone.")
                .put("type", "object")
                .put("additionalProperties", false);
        dataDisk.putArray("required").add("storage").add("size_gib");
        ObjectNode diskKeys = dataDisk.putObject("properties");
        diskKeys.putObject("storage")
                .put("title", "Storage")
                .put(
                        "description",
                        "The storage the disk is allocated on; it holds disk images on every node of the type.")
                .put("type", "string")
                .put("pattern", "^" + TypeSettings.STORAGE_ID + "$");
        diskKeys.putObject("size_gib")
                .put("title", "Size (GiB)")
                .put("description", "The disk's size in GiB.")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", 128L * 1024);
        ObjectNode bus = diskKeys.putObject("bus")
                .put("title", "Bus")
                .put("description", "The disk's bus: scsi (scsi1, scsi2, ...) or virtio.")
                .put("type", "string")
                .put("default", "scsi");
        DiskSpec.BUSES.forEach(bus.putArray("enum")::add);
        diskKeys.putObject("ssd")
                .put("title", "SSD")
                .put("description", "Whether the guest sees an SSD rather than a spinning disk (scsi only).")
                .put("type", "boolean");
        diskKeys.putObject("discard")
                .put("title", "Discard")
                .put("description", "Whether the guest's discard (TRIM) requests reach the storage.")
                .put("type", "boolean");
        diskKeys.putObject("iothread")
                .put("title", "IO thread")
                .put("description", "Whether QEMU gives the disk its own I/O thread.")
                .put("type", "boolean");
        ObjectNode cache = diskKeys.putObject("cache")
                .put("title", "Cache")
                .put("description", "QEMU's cache mode for the disk; Proxmox's default (none) without it.")
                .put("type", "string");
        DiskSpec.CACHE_MODES.forEach(cache.putArray("enum")::add);
        schemas.put("disks", disks);

        ObjectNode bios =
                described("Firmware", "The clone's firmware: seabios, or ovmf for UEFI; the template's without it.");
        bios.put("type", "string").putArray("enum").add("seabios").add("ovmf");
        schemas.put("bios", bios);

        ObjectNode efi = described(
                "EFI disk storage",
                "The storage of the EFI vars disk each clone gets (efidisk0, 4m type, no Secure Boot keys"
                        + " enrolled) unless its template has one; needs bios \"ovmf\".");
        efi.put("type", "string").put("pattern", "^" + TypeSettings.STORAGE_ID + "$");
        schemas.put("efi_storage", efi);

        ObjectNode tpm = described(
                "TPM state storage",
                "The storage of the TPM 2.0 state disk each clone gets (tpmstate0) unless its template has one.");
        tpm.put("type", "string").put("pattern", "^" + TypeSettings.STORAGE_ID + "$");
        schemas.put("tpm", tpm);

        ObjectNode bootstrap = described(
                "Bootstrap delivery",
                "How the guests get their bootstrap blob: \"agent\" writes it through the qemu guest agent and runs"
                        + " --bootstrap-exec; \"nocloud\" hands it to the first boot as the user-data of a cloud-init"
                        + " NoCloud seed (an ISO on seed_storage, attached as a CD-ROM), and waits for the node and"
                        + " drains it through the workload cluster's Kubernetes API (--cluster-kubeconfig).");
        bootstrap.put("type", "string").put("default", "agent");
        bootstrap.putArray("enum").add("agent").add("nocloud");
        schemas.put("bootstrap", bootstrap);

        ObjectNode seedStorage = described(
                "Seed storage",
                "The storage a nocloud type's seed images are uploaded to: one that holds ISO images on every"
                        + " node of the type, e.g. \"local\"; needed with bootstrap \"nocloud\" and only then.");
        seedStorage.put("type", "string").put("pattern", "^" + TypeSettings.STORAGE_ID + "$");
        schemas.put("seed_storage", seedStorage);

        Map<String, String> out = new LinkedHashMap<>();
        schemas.forEach((key, schema) -> out.put(key, text(schema)));
        return out;
    }

    private static ObjectNode described(String title, String description) {
        return JSON.createObjectNode().put("title", title).put("description", description);
    }

    private static String text(ObjectNode schema) {
        try {
            return JSON.writeValueAsString(schema);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
