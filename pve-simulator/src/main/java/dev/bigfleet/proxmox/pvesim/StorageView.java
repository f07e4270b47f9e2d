package dev.bigfleet.proxmox.pvesim;

import java.util.List;

/**
 * A snapshot of one storage's space as one node sees it, for test assertions.
 *
 * @param node the node whose space it is; null for a shared storage
 * @param volumes every volume on it, by volume ID
 */
public record StorageView(
        String storage,
        String node,
        StorageType type,
        boolean shared,
        long capacityBytes,
        long usedBytes,
        List<VolumeView> volumes) {

    public StorageView {
        volumes = List.copyOf(volumes);
    }

    public long availBytes() {
        return Math.max(0, capacityBytes - usedBytes);
    }

    /**
     * One volume: its ID, virtual size, the space it takes, its owner, whether it is a template's
     * base and, for a linked clone, the volume ID of its base (else null).
     */
    public record VolumeView(
            String volid, long sizeBytes, long allocatedBytes, int owner, boolean base, String linkedFrom) {}
}
