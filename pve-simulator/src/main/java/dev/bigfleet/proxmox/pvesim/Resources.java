package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.Map;

/** The entries of {@code /cluster/resources}, {@code /nodes} and pool member lists. */
final class Resources {
    static final long DISK_BYTES = 32L << 30;
    static final long NODE_DISK_BYTES = 100L << 30;

    private Resources() {}

    /**
     * A VM entry. {@code status}, {@code name} and {@code template} come from the statistics
     * sample; {@code tags}, {@code lock} and {@code pool} are live (pool members show neither tags
     * nor lock).
     */
    static Map<String, Object> vm(Cluster cluster, Vm vm, boolean live) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "qemu/" + vm.vmid);
        e.put("vmid", vm.vmid);
        e.put("node", vm.node);
        e.put("type", "qemu");
        StatsSample s = cluster.statsOf(vm);
        e.put("status", s == null ? "unknown" : s.status());
        if (s != null) {
            e.put("name", s.name());
            e.put("template", s.template());
        }
        long now = Cluster.now();
        boolean running = s != null && "running".equals(s.status()) && vm.running;
        e.put("uptime", running ? Math.max(1, (now - vm.startedAtNanos) / 1_000_000_000L) : 0);
        e.put("maxcpu", vm.vcpus());
        e.put("cpu", running ? 0.0131 : 0);
        e.put("maxmem", (long) vm.memoryMib() << 20);
        e.put("mem", running ? ((long) vm.memoryMib() << 20) * 3 / 10 : 0);
        e.put("maxdisk", DISK_BYTES);
        e.put("disk", 0);
        e.put("netin", running ? 4100 : 0);
        e.put("netout", running ? 980 : 0);
        e.put("diskread", running ? 1048576 : 0);
        e.put("diskwrite", 0);
        if (live) {
            Object tags = vm.config.get("tags");
            if (tags != null) {
                e.put("tags", tags);
            }
            if (vm.lock() != null) {
                e.put("lock", vm.lock());
            }
            String pool = cluster.poolOf(vm.vmid);
            if (pool != null && cluster.acl.has("/pool/" + pool, "Pool.Audit")) {
                e.put("pool", pool);
            }
        }
        return e;
    }

    static Map<String, Object> container(Cluster cluster, Container c) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "lxc/" + c.vmid());
        e.put("vmid", c.vmid());
        e.put("node", c.node());
        e.put("type", "lxc");
        e.put("status", "running");
        e.put("name", c.name());
        e.put("template", 0);
        e.put("maxcpu", 1);
        e.put("maxmem", 536870912L);
        e.put("mem", 104857600L);
        e.put("maxdisk", 8L << 30);
        e.put("disk", 1L << 30);
        e.put("uptime", 86_000);
        String pool = cluster.poolOf(c.vmid());
        if (pool != null) {
            e.put("pool", pool);
        }
        return e;
    }

    /** A node entry; without {@code Sys.Audit} on {@code /nodes/<node>} it has no statistics. */
    static Map<String, Object> node(Cluster cluster, Node n, boolean forResources) {
        boolean audit = cluster.acl.has("/nodes/" + n.name(), "Sys.Audit");
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "node/" + n.name());
        e.put("node", n.name());
        e.put("type", "node");
        e.put("status", n.online ? "online" : "offline");
        e.put("level", "");
        if (audit) {
            e.put("maxcpu", n.spec.maxCpu());
            e.put("maxmem", n.spec.maxMemBytes());
            e.put("maxdisk", NODE_DISK_BYTES);
        }
        if (n.online && audit) {
            e.put("cpu", cpuFraction(cluster, n));
            e.put("mem", cluster.usedMemBytes(n.name()));
            e.put("disk", 8L << 30);
            e.put("uptime", Cluster.epoch() - cluster.bootEpoch);
        }
        if (forResources) {
            e.put("cgroup-mode", 2);
            e.put("hastate", "online");
        } else {
            e.put("ssl_fingerprint", cluster.sslFingerprint);
        }
        return e;
    }

    static double cpuFraction(Cluster cluster, Node n) {
        int vcpus = 0;
        for (Vm vm : cluster.vms.values()) {
            if (vm.running && vm.node.equals(n.name())) {
                vcpus += vm.vcpus();
            }
        }
        return Math.min(1.0, 0.01 + vcpus * 0.02 / n.spec.maxCpu());
    }

    /** A storage entry of {@code /cluster/resources}: one per node it is enabled on. */
    static Map<String, Object> storage(Node n, StoragePool pool) {
        StorageSpec s = pool.spec;
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "storage/" + n.name() + "/" + s.id());
        e.put("storage", s.id());
        e.put("node", n.name());
        e.put("type", "storage");
        e.put("plugintype", s.type().pluginType());
        e.put("status", n.online ? "available" : "unknown");
        e.put("shared", s.shared() ? 1 : 0);
        e.put("content", String.join(",", s.content()));
        if (n.online) {
            e.put("maxdisk", pool.capacityBytes);
            e.put("disk", pool.used());
        }
        return e;
    }

    static Map<String, Object> pool(Pool p) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "/pool/" + p.id);
        e.put("pool", p.id);
        e.put("type", "pool");
        return e;
    }
}
