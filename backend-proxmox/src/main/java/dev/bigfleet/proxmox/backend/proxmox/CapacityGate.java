package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PciMapping;
import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Admits a clone onto a node only if the node is online and has the memory: the VMs placed on it
 * (their configured memory) plus this process's clones still in flight must fit in
 * {@code --memory-overcommit} times the node's memory. A clone stays reserved until the listing
 * shows it on its node with its memory (the statistics lag behind a new VM), at most 15 minutes.
 * A type that passes PCI devices through by mapping also needs a free device of each mapping on
 * the node: the devices the mapping maps there, less those this provider's VMs on the node take
 * (a VM's type is known by its name); a device another VM holds is found when Proxmox refuses the
 * start.
 */
final class CapacityGate {
    static final Duration HOLD = Duration.ofMinutes(15);
    private static final long MIB = 1024L * 1024L;

    private record Reservation(String node, long bytes, Instant at, long vmid, Map<String, Integer> pci) {}

    private final double overcommit;
    private final Map<String, Reservation> reservations = new HashMap<>();
    private volatile Map<String, PciMapping> pciMappings = Map.of();

    CapacityGate(double overcommit) {
        this.overcommit = overcommit;
    }

    /** The PCI mappings and their devices per node, as the cluster has them (read at startup). */
    void usePciMappings(List<PciMapping> mappings) {
        Map<String, PciMapping> byId = new HashMap<>();
        mappings.forEach(m -> byId.put(m.id(), m));
        pciMappings = Map.copyOf(byId);
    }

    synchronized void admit(
            String machineId, String node, String instanceType, long memoryMib, List<ClusterResource> listed)
            throws BackendException {
        admit(machineId, node, instanceType, memoryMib, Map.of(), name -> Map.of(), listed);
    }

    /**
     * @param pci the devices one VM of the type takes, per PCI mapping
     * @param pciOfVm the devices a listed VM of this provider takes, by its name (none for others')
     * @param listed one {@code GET /cluster/resources} answer (nodes and VMs)
     * @throws BackendException naming the node and the numbers when the clone does not fit
     */
    synchronized void admit(
            String machineId,
            String node,
            String instanceType,
            long memoryMib,
            Map<String, Integer> pci,
            Function<String, Map<String, Integer>> pciOfVm,
            List<ClusterResource> listed)
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
        for (Map.Entry<String, Integer> want : pci.entrySet()) {
            PciMapping mapping = pciMappings.get(want.getKey());
            if (mapping == null) {
                continue; // not read at startup: Proxmox's start says whether a device is free
            }
            int devices = mapping.devicesOn(node);
            int taken = pciUsed(node, want.getKey(), pciOfVm, listed);
            if (taken + want.getValue() > devices) {
                throw new BackendException("node " + node + " has no free device of PCI mapping " + want.getKey()
                        + " for " + instanceType + ": " + taken + " of its " + devices
                        + " device(s) there are taken by this provider's VMs");
            }
        }
        reservations.put(machineId, new Reservation(node, need, now, 0, Map.copyOf(pci)));
    }

    /** Devices of {@code mapping} on {@code node} that this provider's VMs, listed or in flight, take. */
    private int pciUsed(
            String node, String mapping, Function<String, Map<String, Integer>> pciOfVm, List<ClusterResource> listed) {
        int used = 0;
        Map<Long, ClusterResource> vms = new HashMap<>();
        for (ClusterResource r : listed) {
            if (r.isQemu() && !r.isTemplate()) {
                vms.put(r.vmid(), r);
                if (r.node().equals(node)) {
                    used += r.name().map(pciOfVm).orElse(Map.of()).getOrDefault(mapping, 0);
                }
            }
        }
        for (Reservation r : reservations.values()) {
            ClusterResource seen = r.vmid() == 0 ? null : vms.get(r.vmid());
            if (r.node().equals(node) && (seen == null || !seen.node().equals(node))) {
                used += r.pci().getOrDefault(mapping, 0);
            }
        }
        return used;
    }

    /** The clone exists now with this VMID; keep counting it until the listing shows it. */
    synchronized void cloned(String machineId, long vmid) {
        Reservation r = reservations.get(machineId);
        if (r != null) {
            reservations.put(machineId, new Reservation(r.node(), r.bytes(), r.at(), vmid, r.pci()));
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
