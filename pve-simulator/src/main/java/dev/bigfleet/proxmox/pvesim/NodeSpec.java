package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Objects;

/**
 * One simulated cluster node: its name, CPU threads and memory in bytes, the IP address it reports
 * in {@code /cluster/status}, and its Linux bridges.
 */
public record NodeSpec(String name, int maxCpu, long maxMemBytes, String ip, List<String> bridges) {
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
        for (String b : bridges) {
            if (!b.matches("[-_.\\w\\d]+")) {
                throw new IllegalArgumentException("node " + name + ": invalid bridge ID '" + b + "'");
            }
        }
    }

    /** A node with the default capacity and bridge {@code vmbr0}; its IP is filled in by the simulator. */
    public static NodeSpec of(String name) {
        return new NodeSpec(name, DEFAULT_CPUS, DEFAULT_MEM_BYTES, "", List.of("vmbr0"));
    }

    public NodeSpec withCapacity(int cpus, long memBytes) {
        return new NodeSpec(name, cpus, memBytes, ip, bridges);
    }

    public NodeSpec withBridges(String... names) {
        return new NodeSpec(name, maxCpu, maxMemBytes, ip, List.of(names));
    }

    NodeSpec withIp(String address) {
        return new NodeSpec(name, maxCpu, maxMemBytes, address, bridges);
    }
}
