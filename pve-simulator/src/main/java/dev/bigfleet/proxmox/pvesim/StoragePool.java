package dev.bigfleet.proxmox.pvesim;

import java.util.Map;
import java.util.TreeMap;

/** The space of one storage on one node (or, for a shared storage, of the whole cluster) and its volumes. */
final class StoragePool {
    final StorageSpec spec;
    /** The node whose space this is; null for a shared storage. */
    final String node;

    long capacityBytes;
    final Map<String, Volume> volumes = new TreeMap<>();

    StoragePool(StorageSpec spec, String node) {
        this.spec = spec;
        this.node = node;
        this.capacityBytes = spec.capacityBytes();
    }

    long used() {
        long sum = 0;
        for (Volume v : volumes.values()) {
            sum += v.allocatedBytes;
        }
        return sum;
    }

    long avail() {
        return Math.max(0, capacityBytes - used());
    }

    /** {@code vm-<vmid>-disk-<n>} with the lowest free {@code n}, as pve-storage picks it. */
    String freeDiskName(int vmid) {
        for (int n = 0; ; n++) {
            String name = "vm-" + vmid + "-disk-" + n;
            boolean taken = false;
            for (Volume v : volumes.values()) {
                if (v.owner == vmid && v.baseName().startsWith(name) && isDiskName(v.baseName(), name)) {
                    taken = true;
                    break;
                }
            }
            if (!taken) {
                return name;
            }
        }
    }

    private static boolean isDiskName(String last, String name) {
        return last.equals(name) || last.startsWith(name + ".");
    }
}
