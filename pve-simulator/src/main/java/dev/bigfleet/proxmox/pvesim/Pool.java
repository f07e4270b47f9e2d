package dev.bigfleet.proxmox.pvesim;

import java.util.TreeSet;

/**
 * A resource pool. Members are VMIDs, not VMs: destroying a VM without {@code purge} leaves its
 * id in the pool, so a later VM with the same id is a member too, as on a real cluster.
 */
final class Pool {
    final String id;
    final String comment;
    final TreeSet<Integer> members = new TreeSet<>();

    Pool(String id, String comment) {
        this.id = id;
        this.comment = comment;
    }
}
