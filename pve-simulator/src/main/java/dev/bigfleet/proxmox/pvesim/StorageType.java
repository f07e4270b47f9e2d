package dev.bigfleet.proxmox.pvesim;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The storage plugins the simulator knows, with what pve-storage says about each: how volumes are
 * named, whether a template's base volume can be linked-cloned, and whether a linked clone's
 * volume name records its base (so destroying the template is refused while clones use it).
 */
public enum StorageType {
    /** A directory ({@code local}): qcow2 files; linked clones are qcow2 overlays of the base. */
    DIR("dir", true, true, true, false),
    /** An NFS export: like a directory, usually shared. */
    NFS("nfs", true, true, true, false),
    /**
     * LVM-thin ({@code local-lvm}): thin snapshots serve linked clones, but their volume names do
     * not record the base, and LVM-thin lets the base be removed without harming them.
     */
    LVMTHIN("lvmthin", false, true, false, false),
    /** Thick LVM: full copies only, space taken at allocation. */
    LVM("lvm", false, false, false, true),
    /** A local ZFS pool. */
    ZFSPOOL("zfspool", false, true, true, false),
    /** Ceph RBD, usually shared. */
    RBD("rbd", false, true, true, false);

    private final String pluginType;
    private final boolean fileBased;
    private final boolean linkedClones;
    private final boolean linkTracksBase;
    private final boolean thick;

    StorageType(String pluginType, boolean fileBased, boolean linkedClones, boolean linkTracksBase, boolean thick) {
        this.pluginType = pluginType;
        this.fileBased = fileBased;
        this.linkedClones = linkedClones;
        this.linkTracksBase = linkTracksBase;
        this.thick = thick;
    }

    /** The type as {@code storage.cfg} and the API name it ({@code plugintype}, {@code type}). */
    public String pluginType() {
        return pluginType;
    }

    /** Whether a base volume on it has the {@code clone} feature (a linked clone is possible). */
    public boolean linkedClones() {
        return linkedClones;
    }

    boolean fileBased() {
        return fileBased;
    }

    boolean linkTracksBase() {
        return linkTracksBase;
    }

    /** Whether growing a volume takes its space at once (thin and file storages take it on write). */
    boolean thick() {
        return thick;
    }

    String format() {
        return fileBased ? "qcow2" : "raw";
    }

    /**
     * Whether the storage has a {@code path} (a directory): only such a storage holds ISO images and
     * takes uploads.
     */
    boolean hasPath() {
        return fileBased;
    }

    /** Its {@code path}: the installer's {@code local} is {@code /var/lib/vz}, others are mounted under {@code /mnt/pve}. */
    String mountPath(String storage) {
        return storage.equals("local") ? "/var/lib/vz" : "/mnt/pve/" + storage;
    }

    /** Where an ISO image {@code name} of the storage lives ({@code <path>/template/iso/<name>}). */
    String isoPath(String storage, String name) {
        return mountPath(storage) + "/template/iso/" + name;
    }

    private static final Pattern DIR_LINKED = Pattern.compile("(\\d+)/(\\S+)/(\\d+)/(\\S+)");
    private static final Pattern DIR_IMAGE = Pattern.compile("(\\d+)/(\\S+)");
    private static final Pattern DIR_ISO = Pattern.compile("iso/([^/]+\\.(?i:iso|img))");
    private static final Pattern DIR_OTHER = Pattern.compile("(vztmpl|backup|snippets|import)/[^/]+");
    private static final Pattern LVM_NAME = Pattern.compile("(?i)[a-z0-9][a-z0-9\\-_.]*[a-z0-9]");

    /**
     * The content type of volume {@code volname} on a storage of this type ({@code images}, {@code
     * iso}, ...), as the plugin's {@code parse_volname} tells it.
     *
     * @throws ApiException 500 with the plugin's words for a name it cannot parse
     */
    String contentType(String volname) {
        switch (this) {
            case DIR:
            case NFS:
                if (DIR_LINKED.matcher(volname).matches()
                        || DIR_IMAGE.matcher(volname).matches()) {
                    return "images";
                }
                if (DIR_ISO.matcher(volname).matches()) {
                    return "iso";
                }
                Matcher other = DIR_OTHER.matcher(volname);
                if (other.matches()) {
                    return other.group(1);
                }
                throw Errors.handler("unable to parse directory volume name '" + volname + "'");
            case LVMTHIN:
            case LVM:
                if (!LVM_NAME.matcher(volname).matches()) {
                    throw Errors.handler("lvm name '" + volname + "' contains illegal characters");
                }
                if (volname.matches(this == LVM ? "vm-\\d+-\\S+" : "(vm|base)-\\d+-\\S+")) {
                    return "images";
                }
                throw Errors.handler("unable to parse lvm volume name '" + volname + "'");
            case ZFSPOOL:
                if (volname.matches("(((base|basevol)-\\d+-\\S+)/)?((base|basevol|vm|subvol)-\\d+-\\S+)")) {
                    return "images";
                }
                throw Errors.handler("unable to parse zfs volume name '" + volname + "'");
            default:
                if (volname.matches("((base-\\d+-\\S+)/)?((base)?(vm)?-\\d+-\\S+)")) {
                    return "images";
                }
                throw Errors.handler("unable to parse rbd volume name '" + volname + "'");
        }
    }

    /** The volume name of disk {@code name} (e.g. {@code vm-105-disk-0}) owned by {@code vmid}. */
    String volname(int vmid, String name) {
        return fileBased ? vmid + "/" + name + "." + format() : name;
    }

    /** Where QEMU finds the volume, as {@code qemu-img} is told in a copy. */
    String path(String storage, String volname) {
        String name = volname.substring(volname.lastIndexOf('/') + 1);
        switch (this) {
            case DIR:
            case NFS:
                return mountPath(storage) + "/images/" + volname;
            case LVMTHIN:
            case LVM:
                return "/dev/" + (storage.equals("local-lvm") ? "pve" : storage) + "/" + name;
            case ZFSPOOL:
                return "/dev/zvol/rpool/data/" + name;
            default:
                return "rbd:" + storage + "/" + name + ":conf=/etc/pve/ceph.conf:id=admin:keyring=/etc/pve/priv/ceph/"
                        + storage + ".keyring";
        }
    }

    /** The volume name of a linked clone {@code name} of VM {@code vmid} made from {@code base}. */
    String linkedVolname(Volume base, int vmid, String name) {
        if (fileBased) {
            return base.owner + "/" + base.baseName() + "/" + vmid + "/" + name + "." + format();
        }
        return linkTracksBase ? base.baseName() + "/" + name : name;
    }
}
