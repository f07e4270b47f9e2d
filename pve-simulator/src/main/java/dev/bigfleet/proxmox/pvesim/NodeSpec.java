package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One simulated cluster node: its name, CPU threads and memory in bytes, the IP address it reports
 * in {@code /cluster/status}, its Linux bridges, and the hugepages its kernel can give VMs: page
 * size in MiB (2 or 1024) to the most pages of that size (by default both sizes, as many as its
 * memory holds, as on an x86 host that allocates them on demand), and the MTU of each bridge that
 * sets one in {@code /etc/network/interfaces} (the others have Linux's 1500).
 */
public record NodeSpec(
        String name,
        int maxCpu,
        long maxMemBytes,
        String ip,
        List<String> bridges,
        Map<Integer, Long> hugepages,
        Map<String, Integer> bridgeMtus) {
    /** 32 threads and 128 GiB, a typical mid-size node. */
    public static final int DEFAULT_CPUS = 32;

    public static final long DEFAULT_MEM_BYTES = 128L << 30;

    public NodeSpec {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?")) {
            throw new IllegalArgumentException("invalid node name \"" + name + "\"");
        }
        if (maxCpu < 1) {
            throw new IllegalArgumentException("node " + name + ": maxCpu must be at least 1");
        }
        if (maxMemBytes < (1L << 30)) {
            throw new IllegalArgumentException("node " + name + ": maxMemBytes must be at least 1 GiB");
        }
        Objects.requireNonNull(ip, "ip");
        bridges = List.copyOf(bridges);
        hugepages = Map.copyOf(hugepages);
        bridgeMtus = Map.copyOf(bridgeMtus);
        for (int size : hugepages.keySet()) {
            if (size != 2 && size != 1024) {
                throw new IllegalArgumentException("node " + name + ": hugepages come in 2 or 1024 MiB, not " + size);
            }
        }
        for (String b : bridges) {
            if (!b.matches("[-_.\\w\\d]+")) {
                throw new IllegalArgumentException("node " + name + ": invalid bridge ID '" + b + "'");
            }
        }
    }

    /** A node with the default capacity and bridge {@code vmbr0}; its IP is filled in by the simulator. */
    public static NodeSpec of(String name) {
        return new NodeSpec(
                name, DEFAULT_CPUS, DEFAULT_MEM_BYTES, "", List.of("vmbr0"), onDemand(DEFAULT_MEM_BYTES), Map.of());
    }

    private static Map<Integer, Long> onDemand(long memBytes) {
        return Map.of(2, memBytes >> 21, 1024, memBytes >> 30);
    }

    public NodeSpec withCapacity(int cpus, long memBytes) {
        return new NodeSpec(name, cpus, memBytes, ip, bridges, onDemand(memBytes), bridgeMtus);
    }

    public NodeSpec withBridges(String... names) {
        return new NodeSpec(name, maxCpu, maxMemBytes, ip, List.of(names), hugepages, bridgeMtus);
    }

    /** The hugepages its kernel can give: page size in MiB to the most pages; an empty map for none at all. */
    public NodeSpec withHugepages(Map<Integer, Long> pages) {
        return new NodeSpec(name, maxCpu, maxMemBytes, ip, bridges, pages, bridgeMtus);
    }

    /** Its bridge {@code bridge} configured with MTU {@code mtu}. */
    public NodeSpec withBridgeMtu(String bridge, int mtu) {
        Map<String, Integer> mtus = new java.util.HashMap<>(bridgeMtus);
        mtus.put(bridge, mtu);
        return new NodeSpec(name, maxCpu, maxMemBytes, ip, bridges, hugepages, mtus);
    }

    /** The MTU of {@code bridge}: its own, else Linux's 1500. */
    public int mtuOf(String bridge) {
        return bridgeMtus.getOrDefault(bridge, 1500);
    }

    NodeSpec withIp(String address) {
        return new NodeSpec(name, maxCpu, maxMemBytes, address, bridges, hugepages, bridgeMtus);
    }
}
