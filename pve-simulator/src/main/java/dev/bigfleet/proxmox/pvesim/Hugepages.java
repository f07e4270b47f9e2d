package dev.bigfleet.proxmox.pvesim;

import java.util.Map;

/**
 * What qemu-server's start says of a VM with {@code hugepages} (its {@code Memory.pm}): NUMA must
 * be on, the node must offer the page size (for {@code any}, 1 GiB pages when the memory is a
 * multiple of 1 GiB, else 2 MiB ones), the memory must be a multiple of it, and the node must still
 * have as many pages of that size free as the VM's memory takes beside the running VMs that hold
 * some; each failure in qemu-server's words, {@code die}s without a line break carrying where
 * Perl died.
 */
final class Hugepages {
    private static final String MEMORY_PM = " at /usr/share/perl5/PVE/QemuServer/Memory.pm line ";

    private Hugepages() {}

    /** The page size a running VM got: {@code any} resolved as its start resolved it. */
    private static int sizeOf(String wanted, int memory, Map<Integer, Long> offered) {
        if (!wanted.equals("any")) {
            return Integer.parseInt(wanted);
        }
        return offered.containsKey(1024) && memory % 1024 == 0 ? 1024 : 2;
    }

    /** The start's failure, or null when the VM asks for no hugepages or gets them. */
    static String problem(Cluster cluster, Vm vm, String node) {
        Object wanted = vm.config.get("hugepages");
        if (wanted == null) {
            return null;
        }
        if (!"1".equals(String.valueOf(vm.config.get("numa")))) {
            return "numa needs to be enabled to use hugepages" + MEMORY_PM + "388.";
        }
        Map<Integer, Long> offered = cluster.nodes.get(node).spec.hugepages();
        int memory = vm.memoryMib();
        if (memory <= 0 || (memory & 1) != 0) {
            return "memory size '" + memory + "' is not a positive even integer; cannot use for hugepages";
        }
        if (offered.isEmpty()) {
            return "your system doesn't support hugepages";
        }
        int size;
        if (wanted.toString().equals("any")) {
            if (offered.containsKey(1024) && memory % 1024 == 0) {
                size = 1024;
            } else if (offered.containsKey(2)) {
                size = 2;
            } else {
                return "host only supports 1024 GB hugepages, but requested size '" + memory
                        + "' is not a multiple of 1024 MB";
            }
        } else {
            size = Integer.parseInt(wanted.toString());
            if (!offered.containsKey(size)) {
                return "your system doesn't support hugepages of " + size + " MB";
            }
            if (memory % size != 0) {
                return "Memory size " + memory + " is not a multiple of the requested hugepages size " + size;
            }
        }
        long taken = 0;
        for (Vm other : cluster.vms.values()) {
            Object theirs = other.config.get("hugepages");
            if (other != vm
                    && other.running
                    && other.node.equals(node)
                    && theirs != null
                    && sizeOf(theirs.toString(), other.memoryMib(), offered) == size) {
                taken += other.memoryMib() / size;
            }
        }
        if (taken + memory / size > offered.get(size)) {
            return "hugepage allocation failed" + MEMORY_PM + "731.";
        }
        return null;
    }
}
