package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * CD-ROM drives ({@code ideN}, {@code sataN}, and {@code cdrom}, qemu-server's alias of {@code ide2})
 * in a config update, as qemu-server's {@code update_vm_api} handles them: the value's format, then
 * before the config is touched an ISO volume without {@code media=cdrom} ({@code
 * $check_drive_param}) and the token's access to the volume's storage ({@code
 * $check_storage_access}); then, while the update is applied (in the task of a {@code POST}), the
 * drive's privilege ({@code VM.Config.CDROM}, both that and {@code VM.Config.Cloudinit} for a
 * cloud-init drive) for the old and the new value, and the volume, which must exist ({@code
 * create_disks}: {@code volume <volid> does not exist}) and whose size is written into the value.
 * Drives that are not CD-ROMs are not modelled on these keys.
 */
final class CdromConfig {
    /** The drive keys a CD-ROM may take in the simulator. */
    static final Pattern KEY = Pattern.compile("ide[0-3]|sata[0-5]");

    /** {@code pve-qm-ide}: the drive keys qemu-server accepts there. */
    static final PropertyString DRIVE = drive().string("model", Drives.MODEL_CHECK);

    /** {@code pve-qm-sata}: as an IDE drive's, without {@code model}. */
    static final PropertyString SATA = drive();

    private static final Pattern PERL_VOLUME_ID = Pattern.compile("(?i)[a-z][a-z0-9\\-_.]*[a-z0-9]:.+", Pattern.DOTALL);

    private final Cluster cluster;

    CdromConfig(Cluster cluster) {
        this.cluster = cluster;
    }

    private static PropertyString drive() {
        PropertyString p = new PropertyString()
                .string("file", CdromConfig::fileCheck)
                .defaultKey("file")
                .requires("file")
                .alias("volume", "file")
                .oneOf("media", List.of("cdrom", "disk"))
                .bool("snapshot")
                .oneOf("cache", List.of("none", "writethrough", "writeback", "unsafe", "directsync"))
                .oneOf("format", Drives.IMAGE_FORMATS)
                .string(
                        "size",
                        v -> Drives.parseSize(v) > 0 || v.equals("0")
                                ? null
                                : "invalid format - value does not look like a valid disk size: " + v)
                .bool("backup")
                .bool("replicate")
                .oneOf("rerror", List.of("ignore", "report", "stop"))
                .oneOf("werror", List.of("enospc", "ignore", "report", "stop"))
                .oneOf("aio", List.of("native", "threads", "io_uring"))
                .oneOf("discard", List.of("ignore", "on"))
                .bool("detect_zeroes")
                .string("serial", Drives.SERIAL_CHECK)
                .bool("shared")
                .bool("ssd")
                .string("wwn", Drives.WWN_CHECK);
        return p;
    }

    /** {@code pve-volume-id-or-qm-path}: {@code none}, {@code cdrom}, an absolute path or a volume ID. */
    static String fileCheck(String v) {
        if (v.equals("none")
                || v.equals("cdrom")
                || v.startsWith("/")
                || PERL_VOLUME_ID.matcher(v).matches()) {
            return null;
        }
        return "invalid format - unable to parse volume ID '" + v + "'";
    }

    /** {@code $resolve_cdrom_alias}: {@code cdrom=X} is {@code ide2=X,media=cdrom}. */
    static void resolveAlias(Map<String, String> changes) {
        String value = changes.remove("cdrom");
        if (value != null && !value.isEmpty()) {
            changes.put("ide2", value.contains("media=") ? value : value + ",media=cdrom");
        }
    }

    /** The drive's options, its {@code file} first. */
    static Map<String, String> parse(String value) {
        return DRIVE.parse(value);
    }

    /** {@code print_drive}: the volume, then the other options in key order. */
    static String print(Map<String, String> drive) {
        StringBuilder b = new StringBuilder(drive.get("file"));
        drive.keySet().stream()
                .filter(k -> !k.equals("file"))
                .sorted()
                .forEach(k -> b.append(',').append(k).append('=').append(drive.get(k)));
        return b.toString();
    }

    static boolean isCdrom(Map<String, String> drive) {
        return "cdrom".equals(drive.get("media"));
    }

    static boolean isCloudinit(Map<String, String> drive) {
        return drive.get("file").matches("[^:]+:(\\d+/)?vm-\\d+-cloudinit(\\.\\w+)?");
    }

    /**
     * {@code $check_drive_param} and {@code $check_storage_access} for the drive keys of {@code
     * changes}, whose values become the printed form. Throws the 400, 403 or 500 Proxmox answers.
     */
    void precheck(int vmid, Map<String, String> changes) {
        for (Map.Entry<String, String> e : changes.entrySet()) {
            if (!KEY.matcher(e.getKey()).matches()) {
                continue;
            }
            Map<String, String> drive = new LinkedHashMap<>(parse(e.getValue()));
            String file = drive.get("file");
            String vtype = volumeType(file);
            if ("iso".equals(vtype) && !isCdrom(drive)) {
                throw Errors.param(e.getKey(), "explicit 'media=cdrom' is required for iso images");
            }
            if (!isCdrom(drive)) {
                throw Errors.handler("the simulator models only CD-ROM drives on '" + e.getKey() + "' (media=cdrom)");
            }
            e.setValue(print(drive));
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            if (KEY.matcher(e.getKey()).matches()) {
                checkStorageAccess(vmid, e.getKey(), parse(e.getValue()).get("file"), true);
            }
        }
    }

    /** The content type of a volume ID's volume ({@code parse_volname}); null for {@code none}, {@code cdrom} or a path. */
    private String volumeType(String file) {
        if (!PERL_VOLUME_ID.matcher(file).matches() || file.startsWith("/")) {
            return null;
        }
        int colon = file.indexOf(':');
        StorageSpec spec = cluster.storages.require(file.substring(0, colon));
        return spec.type().contentType(file.substring(colon + 1));
    }

    /** {@code $check_storage_access} (and {@code check_volume_access}) for one drive's volume. */
    private void checkStorageAccess(int vmid, String key, String file, boolean contentCheck) {
        if (file.equals("none")) {
            return;
        }
        if (file.equals("cdrom")) {
            cluster.acl.require("/", "Sys.Console");
            return;
        }
        if (file.startsWith("/")) {
            // a die without a newline: Perl adds where it died
            throw Errors.handler(
                    "Only root can pass arbitrary filesystem paths. at /usr/share/perl5/PVE/Storage.pm line 651.");
        }
        int colon = file.indexOf(':');
        String storage = file.substring(0, colon);
        String vtype = volumeType(file);
        String path = "/storage/" + storage;
        if (!cluster.acl.has(path, "Datastore.Allocate")) {
            if (vtype.equals("iso") || vtype.equals("vztmpl") || vtype.equals("import")) {
                cluster.acl.requireAny(path, "Datastore.AllocateSpace", "Datastore.Audit");
            } else {
                Volume v =
                        cluster.storages.volume(file, cluster.vms.containsKey(vmid) ? cluster.vms.get(vmid).node : "");
                int owner = v == null ? ownerOf(file) : v.owner;
                if (owner != vmid) {
                    if (!vtype.equals("images") || owner == 0) {
                        throw Errors.handler("missing privileges to access " + file);
                    }
                    cluster.acl.require(path, "Datastore.Audit");
                    cluster.acl.require("/vms/" + owner, "VM.Config.Disk");
                }
            }
        }
        if (contentCheck && !vtype.equals("images") && !vtype.equals("iso")) {
            throw Errors.param(key, "content type needs to be 'images' or 'iso'");
        }
    }

    private static int ownerOf(String volid) {
        java.util.regex.Matcher m = Pattern.compile("(?:base|vm)-(\\d+)-").matcher(volid);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** {@code $check_drive_perms}: the privilege a drive's value asks for on the VM. */
    void requireDrivePerms(int vmid, String key, String value) {
        Map<String, String> drive;
        try {
            drive = parse(value);
        } catch (IllegalArgumentException e) {
            drive = Map.of("file", value);
        }
        String path = "/vms/" + vmid;
        if (isCdrom(drive) && isCloudinit(drive)) {
            cluster.acl.require(path, "VM.Config.Cloudinit", "VM.Config.CDROM");
        } else if (isCdrom(drive)) {
            cluster.acl.require(path, "VM.Config.CDROM");
        } else {
            cluster.acl.require(path, "VM.Config.Disk");
        }
    }

    /**
     * {@code create_disks} for one CD-ROM value: {@code none} and {@code cdrom} lose any size; a
     * volume must exist on the VM's node and gets its size.
     */
    String create(Vm vm, String key, String value) {
        Map<String, String> drive = new LinkedHashMap<>(parse(value));
        String file = drive.get("file");
        if (file.equals("none") || file.equals("cdrom")) {
            drive.remove("size");
            return print(drive);
        }
        checkStorageAccess(vm.vmid, key, file, false);
        String vtype = volumeType(file);
        if (!vtype.equals("images") && !vtype.equals("iso")) {
            throw Errors.handler("cannot use volume " + file + " - content type needs to be 'images' or 'iso'");
        }
        Volume v = cluster.storages.volume(file, vm.node);
        if (v == null) {
            StorageSpec spec = cluster.storages.spec(file.substring(0, file.indexOf(':')));
            if (!spec.enabledOn(vm.node)) {
                throw Errors.handler("storage '" + spec.id() + "' is not available on node '" + vm.node + "'");
            }
            throw Errors.handler("volume " + file + " does not exist");
        }
        drive.put("size", Drives.formatSize(v.sizeBytes));
        return print(drive);
    }

    /** The config's {@code boot} with {@code order=} listing {@code devices}. */
    static String printBootOrder(List<String> devices) {
        return "order=" + String.join(";", devices);
    }

    /** The devices of a {@code boot: order=...} value; empty for a legacy or absent one. */
    static List<String> bootOrder(Object boot) {
        List<String> out = new ArrayList<>();
        if (boot == null) {
            return out;
        }
        for (String part : boot.toString().split(",", -1)) {
            if (part.startsWith("order=")) {
                for (String d : part.substring(6).split("[;,\\s]+", -1)) {
                    if (!d.isEmpty()) {
                        out.add(d);
                    }
                }
            }
        }
        return out;
    }
}
