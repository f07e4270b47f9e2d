package dev.bigfleet.proxmox.pvesim;

/**
 * One volume on a storage: its name as the storage names it, its virtual size, the space it takes
 * ({@code allocated}: a full copy takes its size, a linked clone nothing until written), its owner
 * VMID, and for a linked clone the base it was made from.
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

    Volume(String storage, String volname, int owner, boolean base, Volume linkedFrom, long sizeBytes, long allocated) {
        this.storage = storage;
        this.volname = volname;
        this.owner = owner;
        this.base = base;
        this.linkedFrom = linkedFrom;
        this.sizeBytes = sizeBytes;
        this.allocatedBytes = allocated;
    }

    String volid() {
        return storage + ":" + volname;
    }

    /** The last path part: {@code base-9000-disk-0}, with {@code .qcow2} on file storages. */
    String baseName() {
        return volname.substring(volname.lastIndexOf('/') + 1);
    }
}
