package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Admits a clone onto a node only if the node is online and has the memory: the VMs placed on it
 * (their configured memory) plus this process's clones still in flight must fit in
 * {@code --memory-overcommit} times the node's memory. A clone stays reserved until the listing
 * shows it on its node with its memory (the statistics lag behind a new VM), at most 15 minutes.
 */
final class CapacityGate {
    static final Duration HOLD = Duration.ofMinutes(15);
    private static final long MIB = 1024L * 1024L;

    private record Reservation(String node, long bytes, Instant at, long vmid) {}

    private final double overcommit;
    private final Map<String, Reservation> reservations = new HashMap<>();

    CapacityGate(double overcommit) {
        this.overcommit = overcommit;
    }

    /**
     * @param listed one {@code GET /cluster/resources} answer (nodes and VMs)
     * @throws BackendException naming the node and the numbers when the clone does not fit
     */
    synchronized void admit(
            String machineId, String node, String instanceType, long memoryMib, List<ClusterResource> listed)
            throws BackendException {
        Instant now = Instant.now();
        reservations.values().removeIf(r -> r.at().plus(HOLD).isBefore(now));
        reservations.remove(machineId);
        Optional<ClusterResource> entry =
                listed.stream().filter(r -> r.isNode() && r.node().equals(node)).findFirst();
        if (entry.isEmpty()) {
            throw new BackendException(
                    "node " + node + " is not a node of this cluster (or not visible to the API token)");
        }
        if (entry.get().status().equals("offline")) {
            throw new BackendException("node " + node + " is offline");
        }
        long need = memoryMib * MIB;
        long maxmem = entry.get().maxmem();
        if (maxmem > 0) {
            long capacity = (long) (maxmem * overcommit);
            long used = used(node, listed);
            if (used + need > capacity) {
                throw new BackendException("node " + node + " has no room for " + instanceType + " (" + memoryMib
                        + " MiB): " + used / MIB + " MiB of " + capacity / MIB + " MiB (--memory-overcommit "
                        + overcommit + " x " + maxmem / MIB + " MiB) are already allocated to VMs");
            }
        }
        reservations.put(machineId, new Reservation(node, need, now, 0));
    }

    /** The clone exists now with this VMID; keep counting it until the listing shows it. */
    synchronized void cloned(String machineId, long vmid) {
        Reservation r = reservations.get(machineId);
        if (r != null) {
            reservations.put(machineId, new Reservation(r.node(), r.bytes(), r.at(), vmid));
        }
    }

    synchronized void release(String machineId) {
        reservations.remove(machineId);
    }

    private long used(String node, List<ClusterResource> listed) {
        long used = 0;
        Map<Long, ClusterResource> vms = new HashMap<>();
        for (ClusterResource r : listed) {
            if (r.isQemu()) {
                vms.put(r.vmid(), r);
                if (r.node().equals(node) && !r.isTemplate()) {
                    used += r.maxmem();
                }
            }
        }
        for (Reservation r : reservations.values()) {
            if (!r.node().equals(node)) {
                continue;
            }
            ClusterResource seen = r.vmid() == 0 ? null : vms.get(r.vmid());
            if (seen == null || !seen.node().equals(node) || seen.maxmem() == 0) {
                used += r.bytes();
            }
        }
        return used;
    }
}
