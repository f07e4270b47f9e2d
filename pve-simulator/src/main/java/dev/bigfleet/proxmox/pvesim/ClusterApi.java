package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Cluster-wide and node-level reads: version, nodes, resources, nextid, pools, tasks. */
final class ClusterApi {
    private final Cluster cluster;

    ClusterApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add("GET", "/version", ParamSchema.of(), c -> version());
        r.add("GET", "/nodes", ParamSchema.of(), c -> nodes());
        r.add("GET", "/cluster/status", ParamSchema.of(), c -> clusterStatus());
        r.add(
                "GET",
                "/cluster/ha/status/manager_status",
                Permission.perm("/", "Sys.Audit"),
                ParamSchema.of(),
                c -> haManagerStatus());
        r.add(
                "GET",
                "/cluster/resources",
                ParamSchema.of().oneOf("type", "vm", "storage", "node", "sdn"),
                c -> resources(c.params().str("type")));
        r.add("GET", "/cluster/nextid", ParamSchema.of().vmid("vmid", false), this::nextId);
        r.add(
                "GET",
                "/pools",
                ParamSchema.of()
                        .string("poolid", false, 0, ParamSchema.POOL_ID_CHECK)
                        .oneOf("type", "qemu", "lxc", "storage"),
                this::pools);
        r.add(
                "GET",
                "/pools/{poolid}",
                ParamSchema.of()
                        .string("poolid", true, 0, ParamSchema.POOL_ID_CHECK)
                        .oneOf("type", "qemu", "lxc", "storage"),
                c -> pool(c.params().str("poolid"), c.params().str("type")));
        r.add(
                "GET",
                "/nodes/{node}/tasks/{upid}/status",
                ParamSchema.of().node("node").string("upid", true),
                c -> taskStatus(c.node(), c.params().str("upid")));
        r.add(
                "GET",
                "/nodes/{node}/tasks/{upid}/log",
                ParamSchema.of()
                        .node("node")
                        .string("upid", true)
                        .integer("start", false, 0, Integer.MAX_VALUE)
                        .integer("limit", false, 0, Integer.MAX_VALUE),
                c -> taskLog(c.node(), c.params().str("upid"), c.params()));
        r.add("GET", "/nodes/{node}/qemu", ParamSchema.of().node("node").bool("full"), c -> qemuList(c.node()));
    }

    private Object version() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("version", "9.1.1");
        v.put("release", "9.1");
        v.put("repoid", "5c2f0b1a9d3e7f64");
        return v;
    }

    /**
     * pve-ha-manager's {@code manager_status}: the CRM's view (master, each node's status: {@code
     * online}, {@code maintenance}, {@code unknown} for a node it cannot reach), each LRM's status
     * (mode {@code active} or {@code maintenance}) and the answering node's quorum.
     */
    private Object haManagerStatus() {
        long now = System.currentTimeMillis() / 1000;
        Map<String, Object> nodeStatus = new LinkedHashMap<>();
        Map<String, Object> lrm = new LinkedHashMap<>();
        String master = null;
        for (Node n : cluster.nodes.values()) {
            if (n.online && master == null) {
                master = n.name();
            }
            nodeStatus.put(n.name(), !n.online ? "unknown" : n.maintenance ? "maintenance" : "online");
            if (n.online) {
                Map<String, Object> l = new LinkedHashMap<>();
                l.put("mode", n.maintenance ? "maintenance" : "active");
                l.put("state", "wait_for_agent_lock");
                l.put("results", Map.of());
                l.put("timestamp", now);
                lrm.put(n.name(), l);
            }
        }
        Map<String, Object> manager = new LinkedHashMap<>();
        if (master != null) {
            manager.put("master_node", master);
            manager.put("timestamp", now);
        }
        manager.put("node_status", nodeStatus);
        manager.put("service_status", Map.of());
        Map<String, Object> quorum = new LinkedHashMap<>();
        quorum.put(
                "node",
                master != null ? master : cluster.nodes.keySet().iterator().next());
        quorum.put("quorate", cluster.quorate() ? 1 : 0);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("manager_status", manager);
        out.put("quorum", quorum);
        out.put("lrm_status", lrm);
        return out;
    }

    private Object nodes() {
        List<Object> out = new ArrayList<>();
        for (Node n : cluster.nodes.values()) {
            out.add(Resources.node(cluster, n, false));
        }
        return out;
    }

    private Object clusterStatus() {
        List<Object> out = new ArrayList<>();
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", "cluster");
        c.put("id", "cluster");
        c.put("name", "pve-simulator");
        c.put("nodes", cluster.nodes.size());
        c.put("quorate", cluster.quorate() ? 1 : 0);
        c.put("version", 3);
        out.add(c);
        boolean first = true;
        for (Node n : cluster.nodes.values()) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("type", "node");
            e.put("id", "node/" + n.name());
            e.put("name", n.name());
            e.put("nodeid", n.nodeId);
            e.put("ip", n.spec.ip());
            e.put("online", n.online ? 1 : 0);
            e.put("local", first ? 1 : 0);
            e.put("level", "");
            out.add(e);
            first = false;
        }
        return out;
    }

    private Object resources(String type) {
        List<Object> out = new ArrayList<>();
        if (type == null || type.equals("node")) {
            for (Node n : cluster.nodes.values()) {
                out.add(Resources.node(cluster, n, true));
            }
        }
        if (type == null || type.equals("vm")) {
            // Real clusters list VMIDs in string order; clients must not rely on any order.
            List<Map<String, Object>> guests = new ArrayList<>();
            for (Vm vm : cluster.vms.values()) {
                if (cluster.acl.canSee(vm.vmid)) {
                    guests.add(Resources.vm(cluster, vm, true));
                }
            }
            for (Container c : cluster.containers.values()) {
                if (cluster.acl.canSee(c.vmid())) {
                    guests.add(Resources.container(cluster, c));
                }
            }
            guests.sort(
                    (a, b) -> a.get("vmid").toString().compareTo(b.get("vmid").toString()));
            out.addAll(guests);
        }
        if (type == null || type.equals("storage")) {
            for (StorageSpec spec : cluster.storages.specs()) {
                if (!cluster.acl.has("/storage/" + spec.id(), "Datastore.Audit")) {
                    continue;
                }
                for (Node n : cluster.nodes.values()) {
                    StoragePool pool = cluster.storages.pool(spec.id(), n.name());
                    if (pool != null) {
                        out.add(Resources.storage(n, pool));
                    }
                }
            }
        }
        if (type == null) {
            for (Pool p : cluster.pools.values()) {
                if (cluster.acl.has("/pool/" + p.id, "Pool.Audit")) {
                    out.add(Resources.pool(p));
                }
            }
        }
        return out;
    }

    private Object nextId(Call c) {
        if (c.params().has("vmid")) {
            int want = c.params().integer("vmid");
            if (cluster.vmidTaken(want)) {
                throw Errors.param("vmid", "VM " + want + " already exists");
            }
            return Integer.toString(want);
        }
        for (int id = cluster.config.vmidLower(); id < cluster.config.vmidUpper(); id++) {
            if (!cluster.vmidTaken(id)) {
                String stealOn = cluster.faults.stealNextVmidOn;
                if (stealOn != null) {
                    cluster.faults.stealNextVmidOn = null;
                    new Faults(cluster)
                            .createForeignVm(ForeignVm.of(id, stealOn).withName("someone-else-" + id));
                }
                // A string, as the real endpoint renders it.
                return Integer.toString(id);
            }
        }
        throw Errors.handler("unable to get any free VMID in range [" + cluster.config.vmidLower() + ", "
                + cluster.config.vmidUpper() + "]");
    }

    private Object pools(Call c) {
        String poolId = c.params().str("poolid");
        List<Object> out = new ArrayList<>();
        if (poolId != null) {
            out.add(pool(poolId, c.params().str("type")));
            return out;
        }
        for (Pool p : cluster.pools.values()) {
            if (!cluster.acl.has("/pool/" + p.id, "Pool.Audit")) {
                continue;
            }
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("poolid", p.id);
            e.put("comment", p.comment);
            out.add(e);
        }
        return out;
    }

    private Object pool(String id, String type) {
        cluster.acl.requirePool(id);
        Pool p = cluster.pools.get(id);
        if (p == null) {
            throw Errors.handler("pool '" + id + "' does not exist");
        }
        List<Object> members = new ArrayList<>();
        for (int vmid : p.members) {
            Vm vm = cluster.vms.get(vmid);
            if (vm != null && (type == null || type.equals("qemu"))) {
                members.add(Resources.vm(cluster, vm, false));
            }
            Container ct = cluster.containers.get(vmid);
            if (ct != null && (type == null || type.equals("lxc"))) {
                members.add(Resources.container(cluster, ct));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("poolid", p.id);
        out.put("comment", p.comment);
        out.put("members", members);
        return out;
    }

    /**
     * pve-manager's task log read: lines {@code start+1} on, at most {@code limit} (50 unless
     * given), each {@code {"n": line number, "t": text}}; a finished task's last line says how it
     * ended.
     */
    private Object taskLog(String node, String upidText, ValidParams params) {
        Task t = task(node, upidText);
        int start = params.has("start") ? params.integer("start") : 0;
        int limit = params.has("limit") ? params.integer("limit") : 50;
        List<Object> out = new ArrayList<>();
        for (int i = start; i < t.log.size() && out.size() < limit; i++) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("n", i + 1);
            line.put("t", t.log.get(i));
            out.add(line);
        }
        return out;
    }

    private Task task(String node, String upidText) {
        Upid upid = Upid.parse(upidText);
        if (upid == null) {
            throw Errors.param("upid", "unable to parse worker upid");
        }
        Task t = cluster.tasks.get(upid.toString());
        // Task logs live on the node that ran the task.
        if (t == null || !t.upid.node().equals(node)) {
            throw Errors.param("upid", "no such task");
        }
        return t;
    }

    private Object taskStatus(String node, String upidText) {
        Task t = task(node, upidText);
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("upid", t.upid.toString());
        s.put("node", t.upid.node());
        s.put("pid", t.upid.pid());
        s.put("pstart", t.upid.pstart());
        s.put("starttime", t.upid.startTime());
        s.put("type", t.upid.type());
        s.put("id", t.upid.id());
        String user = t.upid.user();
        int bang = user.indexOf('!');
        s.put("user", bang < 0 ? user : user.substring(0, bang));
        if (bang >= 0) {
            s.put("tokenid", user.substring(bang + 1));
        }
        s.put("status", t.running() ? "running" : "stopped");
        if (!t.running()) {
            s.put("exitstatus", t.exitStatus);
        }
        return s;
    }

    private Object qemuList(String node) {
        List<Object> out = new ArrayList<>();
        for (Vm vm : cluster.vms.values()) {
            if (!vm.node.equals(node)) {
                continue;
            }
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("vmid", vm.vmid);
            e.put("status", vm.running ? "running" : "stopped");
            if (vm.name() != null) {
                e.put("name", vm.name());
            }
            e.put("cpus", vm.vcpus());
            e.put("maxmem", (long) vm.memoryMib() << 20);
            e.put("maxdisk", Resources.DISK_BYTES);
            e.put("uptime", vm.running ? Math.max(1, (Cluster.now() - vm.startedAtNanos) / 1_000_000_000L) : 0);
            if (vm.template()) {
                e.put("template", 1);
            }
            if (vm.config.get("tags") != null) {
                e.put("tags", vm.config.get("tags"));
            }
            if (vm.lock() != null) {
                e.put("lock", vm.lock());
            }
            out.add(e);
        }
        return out;
    }
}
