package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Node-level reads: status, network interfaces (bridges and VNets), and the CPU models QEMU offers. */
final class NodeApi {
    private final Cluster cluster;

    NodeApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "GET",
                "/nodes/{node}/status",
                Permission.perm("/nodes/{node}", "Sys.Audit"),
                ParamSchema.of().node("node"),
                c -> nodeStatus(c.node()));
        r.add(
                "GET",
                "/nodes/{node}/network",
                ParamSchema.of()
                        .node("node")
                        .oneOf(
                                "type",
                                "bridge",
                                "bond",
                                "eth",
                                "alias",
                                "vlan",
                                "fabric",
                                "OVSBridge",
                                "OVSBond",
                                "OVSPort",
                                "OVSIntPort",
                                "vnet",
                                "any_bridge",
                                "any_local_bridge",
                                "include_sdn"),
                c -> network(c.node(), c.params().str("type")));
        r.add(
                "GET",
                "/nodes/{node}/capabilities/qemu/cpu",
                ParamSchema.of().node("node").oneOf("arch", "x86_64", "aarch64"),
                c -> CpuModels.list());
    }

    /**
     * pve-manager's interface list: {@code eno1}, the node's bridges and, for {@code any_bridge},
     * {@code vnet} and {@code include_sdn}, the SDN VNets. A bridge is listed only to a token with
     * {@code SDN.Audit} or {@code SDN.Use} on it (or on one of its VLANs) in the local network zone,
     * a VNet likewise in its own zone ({@link Acl#canAccessBridge}).
     */
    private Object network(String node, String type) {
        List<Object> out = new ArrayList<>();
        Node n = cluster.nodes.get(node);
        boolean everyInterface = type == null || type.equals("include_sdn");
        if (everyInterface || type.equals("eth")) {
            out.add(Map.of(
                    "iface", "eno1", "type", "eth", "active", 1, "exists", 1, "method", "manual", "priority", 3));
        }
        if (everyInterface || type.equals("bridge") || type.equals("any_bridge") || type.equals("any_local_bridge")) {
            int priority = 4;
            for (String bridge : n.spec.bridges()) {
                if (!cluster.acl.canAccessBridge(BridgeAccess.LOCAL_ZONE, bridge, "SDN.Audit", "SDN.Use")) {
                    continue;
                }
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("iface", bridge);
                e.put("type", "bridge");
                e.put("active", 1);
                e.put("autostart", 1);
                e.put("bridge_ports", bridge.equals("vmbr0") ? "eno1" : "");
                e.put("bridge_stp", "off");
                e.put("bridge_fd", "0");
                e.put("families", List.of("inet"));
                e.put("method", "manual");
                if (n.spec.bridgeMtus().containsKey(bridge)) {
                    e.put("mtu", n.spec.bridgeMtus().get(bridge));
                }
                e.put("priority", priority++);
                out.add(e);
            }
        }
        if (type != null && (type.equals("any_bridge") || type.equals("vnet") || type.equals("include_sdn"))) {
            for (VnetSpec v : cluster.vnets.sorted()) {
                if (cluster.acl.canAccessBridge(v.zone(), v.name(), "SDN.Audit", "SDN.Use")) {
                    out.add(vnetInterface(v));
                }
            }
        }
        return out;
    }

    /** pve-network's {@code get_local_vnets} entry (the simulated zones have no IPAM). */
    private static Map<String, Object> vnetInterface(VnetSpec v) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("iface", v.name());
        e.put("type", "vnet");
        e.put("active", "1");
        e.put("ipam", 0);
        e.put("vlanaware", 0);
        e.put("comments", v.alias());
        return e;
    }

    private Object nodeStatus(String node) {
        Node n = cluster.nodes.get(node);
        long total = n.spec.maxMemBytes();
        long used = cluster.usedMemBytes(node);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("uptime", Cluster.epoch() - cluster.bootEpoch);
        s.put("idle", 0);
        s.put("loadavg", List.of("0.52", "0.61", "0.58"));
        s.put("cpu", Resources.cpuFraction(cluster, n));
        s.put("wait", 0.0011);
        Map<String, Object> cpuinfo = new LinkedHashMap<>();
        cpuinfo.put("model", "Simulated CPU");
        cpuinfo.put("sockets", 1);
        cpuinfo.put("cores", Math.max(1, n.spec.maxCpu() / 2));
        cpuinfo.put("cpus", n.spec.maxCpu());
        cpuinfo.put("mhz", "3000.000");
        cpuinfo.put("hvm", "1");
        s.put("cpuinfo", cpuinfo);
        s.put("memory", Map.of("total", total, "used", used, "free", total - used, "available", total - used));
        s.put("swap", Map.of("total", 8589930496L, "used", 0, "free", 8589930496L));
        s.put("ksm", Map.of("shared", 0));
        s.put(
                "rootfs",
                Map.of(
                        "total",
                        Resources.NODE_DISK_BYTES,
                        "used",
                        8L << 30,
                        "free",
                        Resources.NODE_DISK_BYTES - (8L << 30),
                        "avail",
                        Resources.NODE_DISK_BYTES - (9L << 30)));
        s.put("kversion", "Linux 6.8.12-4-pve #1 SMP PREEMPT_DYNAMIC");
        s.put("current-kernel", Map.of("sysname", "Linux", "release", "6.8.12-4-pve", "machine", "x86_64"));
        s.put("boot-info", Map.of("mode", "efi", "secureboot", 0));
        s.put("pveversion", "pve-manager/9.1.1/5c2f0b1a9d3e7f64");
        return s;
    }
}
