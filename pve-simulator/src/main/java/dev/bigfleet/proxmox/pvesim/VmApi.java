package dev.bigfleet.proxmox.pvesim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Per-VM calls: clone and config; status, power and destroy are in {@link VmPowerApi}. */
final class VmApi {
    private static final String VM = "/nodes/{node}/qemu/{vmid}";
    private static final Set<String> HOTPLUG_PENDING = Set.of("cores", "sockets", "memory", "agent", "balloon");

    private final Cluster cluster;
    private final CdromConfig cdroms;
    private final NewDrives newDrives;

    private static String memoryCheck(String v) {
        String n = v.startsWith("current=") ? v.substring(8) : v;
        if (!n.matches("[0-9]{1,9}") || Long.parseLong(n) < 16) {
            return "invalid format - value must be [current=]<MiB> with at least 16";
        }
        return null;
    }

    /** {@code address-list}: IP addresses separated by spaces, commas or semicolons. */
    private static String nameserverCheck(String v) {
        for (String a : v.split("[,;\\s]+", -1)) {
            if (!a.isEmpty() && !a.matches("\\d{1,3}(\\.\\d{1,3}){3}") && !a.matches("[0-9a-fA-F:]+")) {
                return "invalid format - value does not look like a valid address: " + a;
            }
        }
        return null;
    }

    /** qemu-server's {@code ostype} enumeration. */
    private static final List<String> OSTYPES = List.of(
            "other", "wxp", "w2k", "w2k3", "w2k8", "wvista", "win7", "win8", "win10", "win11", "l24", "l26", "solaris");

    private static String tagsCheck(String v) {
        return Tags.normalise(v) == null ? "invalid format - invalid characters in tag" : null;
    }

    VmApi(Cluster cluster) {
        this.cluster = cluster;
        this.cdroms = new CdromConfig(cluster);
        this.newDrives = new NewDrives(cluster);
    }

    void register(Router r) {
        new CloneApi(cluster).register(r, VM);
        r.add(
                "GET",
                VM + "/config",
                Permission.perm("/vms/{vmid}", "VM.Audit"),
                vmSchema().bool("current").string("snapshot", false, 40, ParamSchema.CONFIG_ID_CHECK),
                this::getConfig);
        r.add("PUT", VM + "/config", CONFIG_PERMISSION, configSchema(), c -> setConfig(c, false));
        r.add(
                "POST",
                VM + "/config",
                CONFIG_PERMISSION,
                configSchema().integer("background_delay", false, 1, 30),
                c -> setConfig(c, true));
        new VmPowerApi(cluster).register(r, VM);
        new DiskApi(cluster).register(r, VM);
    }

    /** Any of the config privileges lets a token ask; each option then needs its own. */
    private static final Permission CONFIG_PERMISSION = Permission.any(
            "/vms/{vmid}",
            "VM.Config.Disk",
            "VM.Config.CDROM",
            "VM.Config.CPU",
            "VM.Config.Memory",
            "VM.Config.Network",
            "VM.Config.HWType",
            "VM.Config.Options",
            "VM.Config.Cloudinit");

    static ParamSchema vmSchema() {
        return ParamSchema.of().node("node").vmid("vmid", true);
    }

    private static ParamSchema configSchema() {
        ParamSchema schema = vmSchema()
                .integer("cores", false, 1, 8192)
                .integer("sockets", false, 1, 4)
                .string("memory", false, 0, VmApi::memoryCheck)
                .integer("balloon", false, 0, Long.MAX_VALUE)
                .string("tags", false, 0, VmApi::tagsCheck)
                .string("description", false, 8192, null)
                .string("name", false, 0, ParamSchema.DNS_NAME_CHECK)
                .string("agent", false, 0, QemuFormats.AGENT.checker())
                .string("cpu", false, 0, QemuFormats.CPU.checker(QemuFormats::cpuCheck))
                .bool("onboot")
                .bool("numa")
                .bool("protection")
                .oneOf("ostype", OSTYPES.toArray(new String[0]))
                .string("delete", false, 0, ParamSchema.CONFIG_ID_LIST_CHECK)
                .string("digest", false, 40, null)
                .rootOnly("skiplock");
        for (int i = 0; i < 32; i++) {
            schema.string("net" + i, false, 0, QemuFormats.NET.checker());
        }
        for (int i = 0; i < 16; i++) {
            schema.string("hostpci" + i, false, 0, QemuFormats.HOSTPCI.checker(QemuFormats::hostpciCheck));
        }
        for (int i = 0; i < 4; i++) {
            schema.string("ide" + i, false, 0, CdromConfig.DRIVE.checker());
        }
        for (int i = 0; i < 6; i++) {
            schema.string("sata" + i, false, 0, CdromConfig.SATA.checker());
        }
        schema.string("cdrom", false, 0, CdromConfig.DRIVE.checker());
        for (int i = 0; i < 31; i++) {
            schema.string("scsi" + i, false, 0, NewDrives.SCSI.checker());
        }
        for (int i = 0; i < 16; i++) {
            schema.string("virtio" + i, false, 0, NewDrives.VIRTIO.checker());
        }
        schema.string("efidisk0", false, 0, NewDrives.EFIDISK.checker());
        schema.string("tpmstate0", false, 0, NewDrives.TPMSTATE.checker());
        schema.oneOf("bios", "seabios", "ovmf");
        for (int i = 0; i < 32; i++) {
            schema.string("ipconfig" + i, false, 0, QemuFormats.IPCONFIG.checker());
        }
        schema.string("nameserver", false, 0, VmApi::nameserverCheck);
        schema.string("searchdomain", false, 0, null);
        schema.string(
                "machine",
                false,
                0,
                v -> v.matches(
                                "(pc|pc(-i440fx)?-\\d+(\\.\\d+)+(\\+pve\\d+)?(\\.pxe)?|q35|pc-q35-\\d+(\\.\\d+)+(\\+pve\\d+)?(\\.pxe)?|virt(?:-\\d+(\\.\\d+)+)?(\\+pve\\d+)?)(,viommu=(intel|virtio))?")
                        ? null
                        : "value does not match the regex pattern");
        return schema;
    }

    private Object getConfig(Call c) {
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        if (c.params().has("snapshot")) {
            throw Errors.handler("snapshot '" + c.params().str("snapshot") + "' does not exist");
        }
        Map<String, Object> out =
                new LinkedHashMap<>(c.params().bool("current", false) ? vm.config : vm.effectiveConfig());
        Object d = out.get("description");
        if (d != null) {
            out.put("description", d.toString().stripTrailing());
        }
        out.put("digest", digest(vm));
        return out;
    }

    static String digest(Vm vm) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(vm.config.toString().getBytes(StandardCharsets.UTF_8));
            sha1.update(vm.pending.toString().getBytes(StandardCharsets.UTF_8));
            sha1.update(vm.pendingDelete.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha1.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Object setConfig(Call c, boolean async) {
        ValidParams p = c.params();
        Map<String, String> changes = new LinkedHashMap<>();
        for (String name : p.names()) {
            if (!Set.of("node", "vmid", "delete", "digest", "background_delay").contains(name)) {
                changes.put(name, p.str(name));
            }
        }
        List<String> deletes = new ArrayList<>();
        if (p.has("delete")) {
            for (String d : p.str("delete").split("[,;\\s]+", -1)) {
                if (!d.isEmpty()) {
                    deletes.add(d);
                }
            }
        }
        if (changes.isEmpty() && deletes.isEmpty()) {
            throw Errors.handler("no options specified");
        }
        CdromConfig.resolveAlias(changes);
        for (int i = 0; i < deletes.size(); i++) {
            String d = deletes.get(i).equals("cdrom") ? "ide2" : deletes.get(i);
            deletes.set(i, d);
            if (changes.containsKey(d)) {
                throw Errors.param("delete", "you can't use '-" + d + "' and -delete " + d + "' at the same time");
            }
        }
        cdroms.precheck(c.vmid(), changes);
        newDrives.precheck(changes);
        ConfigPermissions.check(cluster, c.vmid(), deletes, changes);
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        if (p.has("digest") && !p.str("digest").equalsIgnoreCase(digest(vm))) {
            throw Errors.handler("checksum mismatch (file change by other user?)");
        }
        if (vm.lock() != null) {
            throw Errors.handler(Errors.locked(vm.lock()));
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            if (e.getKey().matches("net\\d+")) {
                // parse_net gives a NIC without a MAC a fresh one
                Map<String, String> net = new LinkedHashMap<>(QemuFormats.NET.parse(e.getValue()));
                net.putIfAbsent("macaddr", cluster.nextMac());
                e.setValue(QemuFormats.printNet(net));
            }
        }
        if (!async) {
            apply(vm, changes, deletes);
            return null;
        }
        if (p.has("background_delay")
                && cluster.delays.task(TaskKind.CONFIG).isZero()
                && !cluster.faults.pending(TaskKind.CONFIG)) {
            // The task would finish within the wait: Proxmox then answers null instead of a UPID,
            // or dies with the task's error.
            try {
                apply(vm, changes, deletes);
            } catch (ApiException e) {
                throw Errors.handler("failed to update VM " + vm.vmid + ": " + e.getMessage());
            }
            return null;
        }
        return cluster.startTask(TaskKind.CONFIG, c.node(), Integer.toString(vm.vmid), () -> {
                    if (cluster.vms.get(vm.vmid) != vm) {
                        return Errors.configMissing(c.node(), vm.vmid);
                    }
                    try {
                        apply(vm, changes, deletes);
                    } catch (ApiException e) {
                        return e.getMessage();
                    }
                    return null;
                })
                .upid
                .toString();
    }

    /**
     * qemu-server's {@code updatefn}: the deletes, then the changes. On a running VM the options
     * that cannot change live stay pending until QEMU restarts; of the drives, a CD-ROM that exists
     * changes its medium at once (an eject with {@code none} too), while adding or deleting an IDE or
     * SATA drive waits. A new CD-ROM joins the boot order ({@code boot: order=...}), a deleted drive
     * leaves it. Throws what Proxmox dies with; what was applied before stays.
     */
    private void apply(Vm vm, Map<String, String> changes, List<String> deletes) {
        List<String> boot = CdromConfig.bootOrder(vm.config.get("boot"));
        boolean bootChanged = false;
        for (String d : deletes) {
            if (Drives.isDrive(d)) {
                Object value = vm.pending.containsKey(d) ? vm.pending.get(d) : vm.config.get(d);
                if (value == null || vm.pendingDelete.contains(d)) {
                    continue; // "cannot delete '<opt>' - not set in current configuration!", a warning
                }
                cdroms.requireDrivePerms(vm.vmid, d, value.toString());
                if (boot.remove(d)) {
                    bootChanged = true;
                }
                vm.pending.remove(d);
                if (vm.running && CdromConfig.KEY.matcher(d).matches() && vm.config.containsKey(d)) {
                    vm.pendingDelete.add(d);
                } else {
                    vm.config.remove(d);
                }
                continue;
            }
            vm.config.remove(d);
            vm.pending.remove(d);
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            String k = e.getKey();
            if (CdromConfig.KEY.matcher(k).matches()) {
                Object old = vm.config.get(k);
                if (old != null) {
                    cdroms.requireDrivePerms(vm.vmid, k, old.toString());
                }
                cdroms.requireDrivePerms(vm.vmid, k, e.getValue());
                String created = cdroms.create(vm, k, e.getValue());
                if (!boot.isEmpty() && !boot.contains(k)) {
                    boot.add(k);
                    bootChanged = true;
                }
                boolean liveMedium = old != null && CdromConfig.isCdrom(CdromConfig.parse(old.toString()));
                if (vm.running && !liveMedium) {
                    vm.pending.put(k, created);
                } else {
                    vm.config.put(k, created);
                    vm.pending.remove(k);
                }
                vm.pendingDelete.remove(k);
                continue;
            }
            if (NewDrives.KEY.matcher(k).matches()) {
                Object old = vm.config.get(k);
                if (old != null) {
                    cdroms.requireDrivePerms(vm.vmid, k, old.toString());
                }
                cdroms.requireDrivePerms(vm.vmid, k, e.getValue());
                String created = newDrives.create(vm, k, e.getValue());
                if (old != null) {
                    // vmconfig_register_unused_drive: the volume it held stays the VM's
                    vm.config.put(freeUnusedKey(vm), Drives.parse(k, old).file());
                }
                if (vm.running && (k.equals("efidisk0") || k.equals("tpmstate0"))) {
                    vm.pending.put(k, created); // not hot-pluggable: takes effect on the next start
                } else {
                    vm.config.put(k, created);
                    vm.pending.remove(k);
                }
                vm.pendingDelete.remove(k);
                continue;
            }
            Object value = typed(k, e.getValue());
            if (value == null) {
                vm.config.remove(k);
                vm.pending.remove(k);
            } else if (vm.running && HOTPLUG_PENDING.contains(k) && !value.equals(vm.config.get(k))) {
                vm.pending.put(k, value);
            } else {
                vm.config.put(k, value);
                vm.pending.remove(k);
            }
        }
        if (bootChanged) {
            String order = CdromConfig.printBootOrder(boot);
            if (vm.running && !order.equals(vm.config.get("boot"))) {
                vm.pending.put("boot", order);
            } else {
                vm.config.put("boot", order);
                vm.pending.remove("boot");
            }
        }
    }

    private static String freeUnusedKey(Vm vm) {
        for (int n = 0; ; n++) {
            if (!vm.config.containsKey("unused" + n)) {
                return "unused" + n;
            }
        }
    }

    /** The stored form: integers as numbers, memory and property strings as strings, tags normalised. */
    private static Object typed(String key, String value) {
        switch (key) {
            case "cores":
            case "sockets":
            case "balloon":
            case "onboot":
            case "numa":
            case "protection":
                return Integer.parseInt(value.trim());
            case "tags":
                List<String> tags = Tags.normalise(value);
                return tags.isEmpty() ? null : String.join(";", tags);
            case "memory":
                return value.startsWith("current=") ? value.substring(8) : value;
            default:
                return value;
        }
    }
}
