package dev.bigfleet.proxmox.pvesim;

import java.nio.file.Path;

/**
 * One volume on a storage: its name as the storage names it, its virtual size, the space it takes
 * ({@code allocated}: a full copy takes its size, a linked clone nothing until written), its owner
 * VMID (0 for an ISO image, which belongs to no VM), and for a linked clone the base it was made
 * from. An uploaded ISO image keeps its bytes in {@code file}.
 */
final class Volume {
    final String storage;
    final String volname;
    final int owner;
    final boolean base;
    /** The base volume of a linked clone, or null. */
    final Volume linkedFrom;

    long sizeBytes;
    long allocatedBytes;
    /** Its bytes on the simulator's host (an uploaded ISO image); null for a volume of no content. */
    Path file;
    /** When it was made (seconds since the epoch). */
    long ctime = Cluster.epoch();

    Volume(String storage, String volname, int owner, boolean base, Volume linkedFrom, long sizeBytes, long allocated) {
        this.storage = storage;
        this.volname = volname;
        this.owner = owner;
        this.base = base;
        this.linkedFrom = linkedFrom;
        this.sizeBytes = sizeBytes;
        this.allocatedBytes = allocated;
    }

    /** Whether it is an ISO image ({@code iso/<name>}). */
    boolean iso() {
        return volname.startsWith("iso/");
    }

    String volid() {
        return storage + ":" + volname;
    }

    /** The last path part: {@code base-9000-disk-0}, with {@code .qcow2} on file storages. */
    String baseName() {
        return volname.substring(volname.lastIndexOf('/') + 1);
    }
}
