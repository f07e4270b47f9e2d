package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * One entry of the simulated {@code storage.cfg}. A storage that is not {@code shared} exists on
 * every node it is enabled on, each node with its own space (an installer's {@code local-lvm});
 * a shared one is one pool of space seen from every node.
 *
 * @param content what the storage holds ({@code images}, {@code iso}, {@code rootdir}, ...)
 * @param nodes the nodes it is enabled on; empty means all
 */
public record StorageSpec(
        String id, StorageType type, boolean shared, long capacityBytes, List<String> content, List<String> nodes) {
    static final long GIB = 1L << 30;

    public StorageSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        if (!id.matches("[a-zA-Z][a-zA-Z0-9\\-_.]*[a-zA-Z0-9]")) {
            throw new IllegalArgumentException("storage ID '" + id + "' contains illegal characters");
        }
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("storage " + id + ": capacity must not be negative");
        }
        content = List.copyOf(new TreeSet<>(content));
        nodes = List.copyOf(nodes);
    }

    /** The installer's {@code local}: a directory for ISOs, container templates and backups. */
    public static StorageSpec local() {
        return new StorageSpec(
                "local", StorageType.DIR, false, 100 * GIB, List.of("iso", "vztmpl", "backup"), List.of());
    }

    /** The installer's {@code local-lvm}: an LVM-thin pool per node for VM disks. */
    public static StorageSpec localLvm() {
        return new StorageSpec(
                "local-lvm", StorageType.LVMTHIN, false, 512 * GIB, List.of("images", "rootdir"), List.of());
    }

    /** A shared Ceph RBD pool {@code ceph-vm} for VM disks. */
    public static StorageSpec cephRbd() {
        return new StorageSpec("ceph-vm", StorageType.RBD, true, 4096 * GIB, List.of("images", "rootdir"), List.of());
    }

    /** A shared NFS export {@code nfs-vm} for VM disks. */
    public static StorageSpec nfs() {
        return new StorageSpec("nfs-vm", StorageType.NFS, true, 4096 * GIB, List.of("images", "iso"), List.of());
    }

    /** A node-local storage of any type for VM disks. */
    public static StorageSpec localOf(String id, StorageType type) {
        return new StorageSpec(id, type, false, 512 * GIB, List.of("images", "rootdir"), List.of());
    }

    public StorageSpec withCapacityGib(long gib) {
        return new StorageSpec(id, type, shared, gib * GIB, content, nodes);
    }

    public StorageSpec withCapacityBytes(long bytes) {
        return new StorageSpec(id, type, shared, bytes, content, nodes);
    }

    /** Enabled only on these nodes ({@code nodes} in {@code storage.cfg}). */
    public StorageSpec onNodes(String... names) {
        return new StorageSpec(id, type, shared, capacityBytes, content, List.of(names));
    }

    boolean holdsImages() {
        return content.contains("images");
    }

    boolean enabledOn(String node) {
        return nodes.isEmpty() || nodes.contains(node);
    }
}
