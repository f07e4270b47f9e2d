package dev.bigfleet.proxmox.backend.proxmox;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.api.InstanceType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What an {@code --instance-types} entry says to this backend beyond its size: how its template is
 * chosen ({@code templates}, {@code template_tags} or its own {@code template_vmid}), its
 * {@code clone_mode}, and the VM's shape ({@code disk_gib}, its NICs as {@code networks} or the
 * first one's {@code bridge} and {@code vlan}, {@code cpu_type}). A bad value is an {@link
 * IllegalArgumentException} naming the entry and the key.
 */
record TypeSettings(
        Optional<Map<String, Long>> templates,
        Optional<List<String>> templateTags,
        boolean ownTemplateVmid,
        Optional<CloneMode> cloneMode,
        OptionalLong diskGib,
        List<NetworkSpec> networks,
        Optional<String> cpuType,
        List<PciDevice> pci,
        Optional<Boolean> numa,
        Optional<Boolean> onboot,
        List<String> tags,
        Optional<String> hugepages,
        Optional<String> cpuAffinity,
        Optional<String> pool,
        List<DiskSpec> disks,
        Optional<String> bios,
        Optional<String> efiStorage,
        Optional<String> tpmStorage,
        GuestBootstrap bootstrap) {

    TypeSettings {
        networks = List.copyOf(networks);
        disks = List.copyOf(disks);
        pci = List.copyOf(pci);
        tags = List.copyOf(tags);
    }

    /** The keys an entry may carry for this backend ({@code template_vmid} so its presence is known). */
    static final List<String> KEYS = List.of(
            "templates",
            "template_tags",
            "template_vmid",
            "clone_mode",
            "disk_gib",
            "bridge",
            "vlan",
            "networks",
            "cpu_type",
            "pci",
            "numa",
            "onboot",
            "tags",
            "hugepages",
            "cpu_affinity",
            "pool",
            "disks",
            "bios",
            "efi_storage",
            "tpm",
            "bootstrap",
            "seed_storage");

    /** A Proxmox storage id (pve-storage's {@code pve-storage-id} format). */
    static final String STORAGE_ID = "[a-z][a-z0-9_.-]*[a-z0-9]";

    /** A bridge (or SDN VNet) name. */
    static final String BRIDGE = "[-_.\\w]+";

    /** A Proxmox tag, compared lower-cased. */
    static final String TAG = "[a-z0-9_][a-z0-9_+.-]*";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_DISK_GIB = 128L * 1024;

    static TypeSettings none() {
        return new TypeSettings(
                Optional.empty(),
                Optional.empty(),
                false,
                Optional.empty(),
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
                Optional.empty(),
                GuestBootstrap.AGENT);
    }

    static TypeSettings of(InstanceType type) {
        Map<String, String> s = type.settings();
        String where = "--instance-types \"" + type.name() + "\"";
        int choices = (s.containsKey("templates") ? 1 : 0)
                + (s.containsKey("template_tags") ? 1 : 0)
                + (s.containsKey("template_vmid") ? 1 : 0);
        if (choices > 1) {
            throw new IllegalArgumentException(where + ": templates, template_tags and template_vmid each choose the"
                    + " template; give only one of them");
        }
        Optional<Integer> vlan = value(s, "vlan", where).map(v -> wholeNumber(v, where + ": vlan", 1, 4094));
        Optional<String> bridge = value(s, "bridge", where).map(v -> bridge(v, where));
        if (vlan.isPresent() && bridge.isEmpty()) {
            throw new IllegalArgumentException(where + ": vlan needs bridge (the bridge the tagged NIC is on)");
        }
        Optional<List<NetworkSpec>> networks = value(s, "networks", where).map(v -> NetworkSpec.parseList(v, where));
        if (networks.isPresent() && bridge.isPresent()) {
            throw new IllegalArgumentException(where + ": networks and bridge both set the first NIC; give networks"
                    + " only (its first entry is net0)");
        }
        Optional<String> bios = value(s, "bios", where).map(v -> bios(v, where));
        Optional<String> efiStorage = value(s, "efi_storage", where).map(v -> storageId(v, where + ": efi_storage"));
        if (efiStorage.isPresent() && !bios.equals(Optional.of("ovmf"))) {
            throw new IllegalArgumentException(where + ": efi_storage is for UEFI guests; it needs \"bios\": \"ovmf\"");
        }
        return new TypeSettings(
                value(s, "templates", where).map(v -> templates(v, where)),
                value(s, "template_tags", where).map(v -> tags(v, where)),
                s.containsKey("template_vmid"),
                value(s, "clone_mode", where).map(v -> cloneMode(v, where)),
                value(s, "disk_gib", where)
                        .map(v -> OptionalLong.of(wholeNumber(v, where + ": disk_gib", 1, MAX_DISK_GIB)))
                        .orElse(OptionalLong.empty()),
                networks.orElse(
                        bridge.map(b -> List.of(NetworkSpec.onBridge(b, vlan))).orElse(List.of())),
                value(s, "cpu_type", where).map(v -> cpuType(v, where)),
                value(s, "pci", where).map(v -> pci(v, where)).orElse(List.of()),
                value(s, "numa", where).map(v -> flag(v, where + ": numa")),
                value(s, "onboot", where).map(v -> flag(v, where + ": onboot")),
                value(s, "tags", where).map(v -> userTags(v, where)).orElse(List.of()),
                value(s, "hugepages", where).map(v -> hugepages(v, where)),
                value(s, "cpu_affinity", where).map(v -> cpuAffinity(v, where)),
                value(s, "pool", where).map(v -> pool(v, where)),
                value(s, "disks", where)
                        .map(v -> DiskSpec.parseList(v, where, MAX_DISK_GIB))
                        .orElse(List.of()),
                bios,
                efiStorage,
                value(s, "tpm", where).map(v -> storageId(v, where + ": tpm")),
                bootstrap(s, where));
    }

    /** {@code "bootstrap": "agent" | "nocloud"}, the latter with {@code "seed_storage"}. */
    private static GuestBootstrap bootstrap(Map<String, String> s, String where) {
        GuestBootstrap.Delivery delivery = value(s, "bootstrap", where)
                .map(v -> GuestBootstrap.Delivery.parse(v.isTextual() ? v.asText() : "")
                        .orElseThrow(() -> new IllegalArgumentException(
                                where + ": bootstrap must be \"agent\" or \"nocloud\", got " + v)))
                .orElse(GuestBootstrap.Delivery.AGENT);
        Optional<String> storage = value(s, "seed_storage", where).map(v -> {
            String id = v.isTextual() ? v.asText() : "";
            if (!id.matches(STORAGE_ID)) {
                throw new IllegalArgumentException(
                        where + ": seed_storage " + v + " is not a storage id (e.g. \"local\")");
            }
            return id;
        });
        if (delivery == GuestBootstrap.Delivery.NOCLOUD && storage.isEmpty()) {
            throw new IllegalArgumentException(where + ": bootstrap \"nocloud\" needs seed_storage, the storage its"
                    + " seed images are uploaded to (one that holds ISO images, e.g. \"local\")");
        }
        if (delivery == GuestBootstrap.Delivery.AGENT && storage.isPresent()) {
            throw new IllegalArgumentException(where + ": seed_storage is only for bootstrap \"nocloud\"");
        }
        return storage.map(GuestBootstrap::nocloud).orElse(GuestBootstrap.AGENT);
    }

    /** {@code "pci": [{"mapping": "gpu-a100", "pcie": true}]}: at most 16 devices, as qemu-server allows. */
    private static List<PciDevice> pci(JsonNode v, String where) {
        String what = where + ": pci";
        if (!v.isArray() || v.isEmpty() || v.size() > 16) {
            throw new IllegalArgumentException(
                    what + " must be a list of 1 to 16 {\"mapping\": NAME, \"pcie\": true|false}");
        }
        List<PciDevice> out = new ArrayList<>();
        for (JsonNode d : v) {
            JsonNode mapping = d.path("mapping");
            if (!d.isObject() || !mapping.isTextual() || !mapping.asText().matches(PciDevice.ID)) {
                throw new IllegalArgumentException(
                        what + ": each device names a PCI mapping id (\"mapping\": \"gpu-a100\")");
            }
            d.fieldNames().forEachRemaining(k -> {
                if (!k.equals("mapping") && !k.equals("pcie")) {
                    throw new IllegalArgumentException(what + ": unknown key \"" + k + "\" (mapping, pcie)");
                }
            });
            JsonNode pcie = d.path("pcie");
            if (!pcie.isMissingNode() && !pcie.isBoolean()) {
                throw new IllegalArgumentException(what + ": pcie must be true or false");
            }
            out.add(new PciDevice(mapping.asText(), pcie.asBoolean(false)));
        }
        return out;
    }

    private static Optional<JsonNode> value(Map<String, String> s, String key, String where) {
        String text = s.get(key);
        if (text == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(text));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + ": " + key + " is not JSON");
        }
    }

    private static Map<String, Long> templates(JsonNode v, String where) {
        if (!v.isObject() || v.isEmpty()) {
            throw new IllegalArgumentException(
                    where + ": templates must be an object of node name to template VMID, e.g. {\"pve1\": 9000}");
        }
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : v.properties()) {
            out.put(e.getKey(), (long)
                    wholeNumber(e.getValue(), where + ": templates." + e.getKey(), 100, 999_999_999));
        }
        return out;
    }

    private static List<String> tags(JsonNode v, String where) {
        if (!v.isArray() || v.isEmpty()) {
            throw new IllegalArgumentException(where + ": template_tags must be a non-empty list of tags");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode t : v) {
            String tag = t.isTextual() ? t.asText().trim().toLowerCase(Locale.ROOT) : "";
            if (!tag.matches(TAG)) {
                throw new IllegalArgumentException(where + ": template_tags: " + t + " is not a Proxmox tag");
            }
            out.add(tag);
        }
        return out;
    }

    /** {@code "hugepages": 2 | 1024 | "any"}, qemu-server's values (MiB, or 1 GiB where it can). */
    private static String hugepages(JsonNode v, String where) {
        String h = v.isIntegralNumber() ? Long.toString(v.asLong()) : v.isTextual() ? v.asText() : "";
        if (!List.of("2", "1024", "any").contains(h) || (v.isTextual() && !h.equals("any"))) {
            throw new IllegalArgumentException(where + ": hugepages must be 2, 1024 or \"any\", got " + v);
        }
        return h;
    }

    /** {@code "cpu_affinity": "0-3,8"}: host cores, as qemu-server's {@code pve-cpuset}. */
    private static String cpuAffinity(JsonNode v, String where) {
        String a = v.isTextual() ? v.asText().trim() : "";
        if (!a.matches("\\d+(-\\d+)?(,\\d+(-\\d+)?)*")) {
            throw new IllegalArgumentException(
                    where + ": cpu_affinity " + v + " is not a list of host cores (e.g. \"0-3,8\")");
        }
        return a;
    }

    /** {@code "bios": "seabios" | "ovmf"}: the firmware, as qemu-server names it. */
    private static String bios(JsonNode v, String where) {
        String b = v.isTextual() ? v.asText() : "";
        if (!b.equals("seabios") && !b.equals("ovmf")) {
            throw new IllegalArgumentException(where + ": bios must be \"seabios\" or \"ovmf\" (UEFI), got " + v);
        }
        return b;
    }

    /** A storage id: {@code efi_storage}, and {@code tpm}, the storage of the TPM 2.0 state disk. */
    private static String storageId(JsonNode v, String what) {
        String id = v.isTextual() ? v.asText() : "";
        if (!id.matches(STORAGE_ID)) {
            throw new IllegalArgumentException(what + " " + v + " is not a storage id (e.g. \"local-lvm\")");
        }
        return id;
    }

    /** A Proxmox pool id (pve-access-control's {@code pve-poolid}). */
    static final String POOL_ID = "[A-Za-z0-9.\\-_]+";

    /** {@code "pool": "gpu"}: the pool the type's clones join instead of {@code --proxmox-pool}. */
    private static String pool(JsonNode v, String where) {
        String p = v.isTextual() ? v.asText() : "";
        if (!p.matches(POOL_ID)) {
            throw new IllegalArgumentException(where + ": pool " + v + " is not a pool id (e.g. \"gpu\")");
        }
        return p;
    }

    private static boolean flag(JsonNode v, String what) {
        if (!v.isBoolean()) {
            throw new IllegalArgumentException(what + " must be true or false, got " + v);
        }
        return v.asBoolean();
    }

    /**
     * {@code "tags": ["team-a", "gpu"]}: Proxmox tags the clones carry beside the provider's markers;
     * {@code bigfleet} and every tag starting {@code bigfleet-} are the provider's own.
     */
    private static List<String> userTags(JsonNode v, String where) {
        if (!v.isArray() || v.isEmpty()) {
            throw new IllegalArgumentException(where + ": tags must be a non-empty list of Proxmox tags");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode t : v) {
            String tag = t.isTextual() ? t.asText().trim().toLowerCase(Locale.ROOT) : "";
            if (!tag.matches(TAG)) {
                throw new IllegalArgumentException(where + ": tags: " + t + " is not a Proxmox tag");
            }
            if (tag.equals(Markers.TAG) || tag.startsWith(Markers.NAME_PREFIX)) {
                throw new IllegalArgumentException(where + ": tags: " + t + " is the provider's own (" + Markers.TAG
                        + " and every tag starting " + Markers.NAME_PREFIX + " mark its VMs and their bindings)");
            }
            if (!out.contains(tag)) {
                out.add(tag);
            }
        }
        return out;
    }

    private static CloneMode cloneMode(JsonNode v, String where) {
        return CloneMode.parse(v.isTextual() ? v.asText() : "")
                .orElseThrow(() ->
                        new IllegalArgumentException(where + ": clone_mode must be \"full\" or \"linked\", got " + v));
    }

    private static String bridge(JsonNode v, String where) {
        String b = v.isTextual() ? v.asText() : "";
        if (!b.matches(BRIDGE)) {
            throw new IllegalArgumentException(where + ": bridge " + v + " is not a bridge name (e.g. \"vmbr0\")");
        }
        return b;
    }

    private static String cpuType(JsonNode v, String where) {
        String c = v.isTextual() ? v.asText().trim() : "";
        if (c.isEmpty() || !c.matches("[-_.+\\w]+")) {
            throw new IllegalArgumentException(
                    where + ": cpu_type " + v + " is not a CPU model name (e.g. \"host\" or \"x86-64-v2-AES\")");
        }
        return c;
    }

    private static int wholeNumber(JsonNode v, String where, long min, long max) {
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(
                    where + " must be a whole number from " + min + " to " + max + ", got " + v);
        }
        return v.asInt();
    }
}
