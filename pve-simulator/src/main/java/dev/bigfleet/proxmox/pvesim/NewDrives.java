package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Disks a config update allocates ({@code scsiN}, {@code virtioN}, {@code efidisk0}, {@code
 * tpmstate0} set to {@code STORAGE:SIZE}, qemu-server's {@code NEW_DISK_RE}), as {@code
 * update_vm_api} handles them: the value's format (each bus its own options: {@code ssd} only on
 * SCSI, {@code efitype} only on the EFI disk), then before the config is touched the token's
 * {@code Datastore.AllocateSpace} on the storage, which must hold VM images ({@code
 * $check_storage_access}); then, while the update is applied, {@code VM.Config.Disk} on the VM and
 * the allocation ({@code create_disks}): a {@code vm-<vmid>-disk-<n>} volume on the storage as the
 * VM's node sees it, of the size asked (the EFI vars' size for {@code efidisk0}, 4 MiB for {@code
 * tpmstate0}); thick LVM refuses one it has no room for. A drive the key held before stays as
 * {@code unusedN}. Setting such a key to an existing volume is not modelled.
 */
final class NewDrives {
    /** The keys this class handles. */
    static final Pattern KEY = Pattern.compile("scsi([0-9]|[12][0-9]|30)|virtio([0-9]|1[0-5])|efidisk0|tpmstate0");

    /** qemu-server's {@code NEW_DISK_RE}: {@code [STORAGE:]SIZE_IN_GIB}. */
    private static final Pattern NEW_DISK = Pattern.compile("(([^/:\\s]+):)?(\\d+(\\.\\d+)?)");

    /** What qemu-server's {@code TPMSTATE_DISK_SIZE} allocates. */
    static final long TPMSTATE_BYTES = 4L << 20;

    /** The size of OVMF's 4 MiB-type vars file ({@code OVMF_VARS_4M.fd}), and of the 2 MiB type's. */
    static final long EFIVARS_4M_BYTES = 540_672;

    static final long EFIVARS_2M_BYTES = 131_072;

    static final PropertyString SCSI = base().bool("iothread")
            .string("product", Drives.PRODUCT_CHECK)
            .integer("queues", 2, Long.MAX_VALUE)
            .bool("ro")
            .bool("scsiblock")
            .bool("ssd")
            .string("vendor", Drives.VENDOR_CHECK)
            .string("wwn", Drives.WWN_CHECK);

    static final PropertyString VIRTIO = base().bool("iothread").bool("ro");

    static final PropertyString EFIDISK = small(Drives.IMAGE_FORMATS)
            .oneOf("efitype", List.of("2m", "4m"))
            .bool("pre-enrolled-keys")
            .oneOf("ms-cert", List.of("2011", "2023", "2023w", "2023k"));

    static final PropertyString TPMSTATE =
            small(List.of("raw", "qcow2", "vmdk")).oneOf("version", List.of("v1.2", "v2.0"));

    private final Cluster cluster;

    NewDrives(Cluster cluster) {
        this.cluster = cluster;
    }

    /** {@code drivedesc_base}: what every disk bus takes. */
    private static PropertyString base() {
        return new PropertyString()
                .string("file", CdromConfig::fileCheck)
                .defaultKey("file")
                .requires("file")
                .alias("volume", "file")
                .oneOf("media", List.of("cdrom", "disk"))
                .bool("snapshot")
                .oneOf("cache", List.of("none", "writethrough", "writeback", "unsafe", "directsync"))
                .oneOf("format", Drives.IMAGE_FORMATS)
                .string("size", NewDrives::sizeCheck)
                .bool("backup")
                .bool("replicate")
                .oneOf("rerror", List.of("ignore", "report", "stop"))
                .oneOf("werror", List.of("enospc", "ignore", "report", "stop"))
                .oneOf("aio", List.of("native", "threads", "io_uring"))
                .oneOf("discard", List.of("ignore", "on"))
                .bool("detect_zeroes")
                .string("serial", Drives.SERIAL_CHECK)
                .bool("shared");
    }

    /**
     * The EFI and TPM state disks: a volume, its format (the TPM state's {@code
     * pve-vm-image-format}, the EFI disk's {@code pve-qm-image-format}) and size, and their own
     * options.
     */
    private static PropertyString small(List<String> formats) {
        return new PropertyString()
                .string("file", CdromConfig::fileCheck)
                .defaultKey("file")
                .requires("file")
                .alias("volume", "file")
                .oneOf("format", formats)
                .string("size", NewDrives::sizeCheck);
    }

    private static String sizeCheck(String v) {
        return Drives.parseSize(v) > 0 || v.equals("0")
                ? null
                : "invalid format - value does not look like a valid disk size: " + v;
    }

    /** The format of a key this class handles. */
    static PropertyString format(String key) {
        if (key.startsWith("scsi")) {
            return SCSI;
        }
        if (key.startsWith("virtio")) {
            return VIRTIO;
        }
        return key.equals("efidisk0") ? EFIDISK : TPMSTATE;
    }

    /**
     * {@code $check_storage_access} for the new disks of {@code changes}: each names a storage, the
     * token holds {@code Datastore.AllocateSpace} on it, and it holds VM images. Throws the 400, 403
     * or 500 Proxmox answers, before anything changes.
     */
    void precheck(Map<String, String> changes) {
        for (Map.Entry<String, String> e : changes.entrySet()) {
            if (!KEY.matcher(e.getKey()).matches()) {
                continue;
            }
            Map<String, String> drive = format(e.getKey()).parse(e.getValue());
            if ("cdrom".equals(drive.get("media"))) {
                throw Errors.handler("the simulator models no CD-ROM on '" + e.getKey() + "'");
            }
            Matcher m = NEW_DISK.matcher(drive.get("file"));
            if (!m.matches()) {
                throw Errors.handler("the simulator models only new volumes (STORAGE:SIZE) on '" + e.getKey() + "'");
            }
            if (m.group(2) == null) {
                throw Errors.handler("no storage ID specified (and no default storage)");
            }
            String storage = m.group(2);
            cluster.acl.require("/storage/" + storage, "Datastore.AllocateSpace");
            StorageSpec spec = cluster.storages.require(storage);
            if (!spec.content().contains("images")) {
                throw Errors.param("storage", "storage '" + storage + "' does not support vm images");
            }
        }
    }

    /**
     * {@code create_disks} for one new disk on a VM: the volume allocated on its node, and the value
     * the config keeps ({@code local-lvm:vm-105-disk-1,iothread=1,size=100G}).
     */
    String create(Vm vm, String key, String value) {
        Map<String, String> drive = new LinkedHashMap<>(format(key).parse(value));
        Matcher m = NEW_DISK.matcher(drive.get("file"));
        if (!m.matches()) {
            throw Errors.handler("the simulator models only new volumes (STORAGE:SIZE) on '" + key + "'");
        }
        String storage = m.group(2);
        StoragePool pool = cluster.storages.pool(storage, vm.node);
        if (pool == null) {
            throw Errors.handler("storage '" + storage + "' is not available on node '" + vm.node + "'");
        }
        long size = key.equals("tpmstate0")
                ? TPMSTATE_BYTES
                : key.equals("efidisk0")
                        ? ("4m".equals(drive.get("efitype")) ? EFIVARS_4M_BYTES : EFIVARS_2M_BYTES)
                        : (long) (Double.parseDouble(m.group(3)) * (1L << 30));
        if (pool.spec.type().thick() && pool.avail() < size) {
            // pve-storage's LVM plugin compares the group's free bytes with the size in KiB
            throw Errors.handler("not enough free space (" + pool.avail() + " < " + size / 1024 + ")");
        }
        long shown = pool.spec.type().fileBased() ? size : roundUp(size, 4L << 20);
        Volume v = cluster.storages.add(
                pool,
                pool.spec.type().volname(vm.vmid, pool.freeDiskName(vm.vmid)),
                vm.vmid,
                false,
                null,
                shown,
                pool.spec.type().thick() ? shown : 0);
        drive.put("file", v.volid());
        drive.remove("format");
        drive.put("size", Drives.formatSize(shown));
        return CdromConfig.print(drive);
    }

    private static long roundUp(long bytes, long unit) {
        return (bytes + unit - 1) / unit * unit;
    }
}
