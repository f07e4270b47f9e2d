package dev.bigfleet.proxmox.pvesim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Per-VM calls: clone and config; status, power and destroy are in {@link VmPowerApi}. */
final class VmApi {
    private static final String VM = "/nodes/{node}/qemu/{vmid}";
    private static final Set<String> HOTPLUG_PENDING = Set.of("cores", "sockets", "memory", "agent", "balloon");

    private final Cluster cluster;

    private static String memoryCheck(String v) {
        String n = v.startsWith("current=") ? v.substring(8) : v;
        if (!n.matches("[0-9]{1,9}") || Long.parseLong(n) < 16) {
            return "invalid format - value must be [current=]<MiB> with at least 16";
        }
        return null;
    }

    private static String tagsCheck(String v) {
        return Tags.normalise(v) == null ? "invalid format - invalid characters in tag" : null;
    }

    private static String agentCheck(String v) {
        return v.matches("(?i)((enabled=)?(1|0|true|false|yes|no|on|off))?(,?[a-z_\\-]+=[^,]*)*")
                ? null
                : "invalid format - value does not match the agent property string";
    }

    VmApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "POST",
                VM + "/clone",
                vmSchema()
                        .vmid("newid", true)
                        .string("name", false, 0, ParamSchema.DNS_NAME_CHECK)
                        .string("description", false, 8192, null)
                        .string("pool", false)
                        .string("target", false, 0, ParamSchema.NODE_CHECK)
                        .bool("full")
                        .string("storage", false)
                        .oneOf("format", "raw", "qcow2", "vmdk")
                        .string("snapname", false)
                        .integer("bwlimit", false, 0, Long.MAX_VALUE),
                this::clone);
        r.add("GET", VM + "/config", vmSchema().bool("current").string("snapshot", false), this::getConfig);
        r.add("PUT", VM + "/config", configSchema(), c -> setConfig(c, false));
        r.add(
                "POST",
                VM + "/config",
                configSchema().integer("background_delay", false, 1, 30),
                c -> setConfig(c, true));
        new VmPowerApi(cluster).register(r, VM);
    }

    static ParamSchema vmSchema() {
        return ParamSchema.of().node("node").vmid("vmid", true);
    }

    private static ParamSchema configSchema() {
        return vmSchema()
                .integer("cores", false, 1, 8192)
                .integer("sockets", false, 1, 4)
                .string("memory", false, 0, VmApi::memoryCheck)
                .integer("balloon", false, 0, Long.MAX_VALUE)
                .string("tags", false, 0, VmApi::tagsCheck)
                .string("description", false, 8192, null)
                .string("name", false, 0, ParamSchema.DNS_NAME_CHECK)
                .string("agent", false, 0, VmApi::agentCheck)
                .bool("onboot")
                .bool("protection")
                .string("ostype", false)
                .string("delete", false)
                .string("digest", false, 64, null)
                .rootOnly("skiplock");
    }

    private Object clone(Call c) {
        ValidParams p = c.params();
        String node = c.node();
        int src = c.vmid();
        cluster.acl.requireVm(src, Privileges.VM_CLONE);
        cluster.acl.requireAllocate(p.integer("newid"), p.str("pool"));
        Vm source = cluster.vms.get(src);
        if (source == null || !source.node.equals(node)) {
            throw Errors.handler("unable to find configuration file for VM " + src + " on node '" + node + "'");
        }
        int newid = p.integer("newid");
        String target = p.str("target");
        if (target != null && (target.equals(node) || target.equals("localhost"))) {
            target = null;
        }
        if (target != null && !cluster.nodes.containsKey(target)) {
            throw Errors.handler("no such cluster node '" + target + "'");
        }
        String pool = p.str("pool");
        if (pool != null && !cluster.pools.containsKey(pool)) {
            throw new ApiException(403, "Permission check failed (pool '" + pool + "' does not exist)", null, false);
        }
        if (source.lock() != null) {
            throw Errors.handler(Errors.locked(source.lock()));
        }
        boolean full = p.bool("full", !source.template());
        if (!full && p.has("storage")) {
            throw Errors.handler("parameter 'storage' not allowed for linked clones");
        }
        if (!full && p.has("format")) {
            throw Errors.handler("parameter 'format' not allowed for linked clones");
        }
        if (target != null && !source.sharedStorage) {
            throw Errors.handler("can't clone VM to node '" + target + "' (VM uses local storage)");
        }
        if (p.has("snapname")) {
            throw Errors.handler("snapshot '" + p.str("snapname") + "' does not exist");
        }
        Vm existing = cluster.vms.get(newid);
        Container ct = cluster.containers.get(newid);
        String holder = existing != null ? existing.node : ct != null ? ct.node() : null;
        if (holder != null && holder.equals(node)) {
            throw Errors.handler("unable to create VM " + newid + ": config file already exists");
        }
        String id = Integer.toString(src);
        if (holder != null) {
            // Only the cluster file system notices an id held on another node.
            return cluster.failedTask(
                            TaskKind.CLONE,
                            node,
                            id,
                            "close (rename) atomic file '/etc/pve/nodes/" + node + "/qemu-server/" + newid
                                    + ".conf' failed: File exists")
                    .upid
                    .toString();
        }
        Vm clone = new Vm(newid, node);
        clone.config.put("lock", "clone");
        clone.agentNeverUp = cluster.faults.agentNeverUpForNewVms || cluster.faults.agentNeverUp.contains(newid);
        cluster.vms.put(newid, clone);
        String name = p.str("name");
        String description = p.str("description");
        String targetNode = target;
        return cluster.startTask(TaskKind.CLONE, node, id, new TaskBody() {
                    @Override
                    public String finish() {
                        if (cluster.vms.get(newid) != clone) {
                            return "clone failed: VM " + newid + " vanished during the clone";
                        }
                        Vm from = cluster.vms.get(src);
                        if (from == null) {
                            cluster.vms.remove(newid);
                            return "clone failed: source VM " + src + " vanished during the clone";
                        }
                        LinkedHashMap<String, Object> copy = new LinkedHashMap<>(from.config);
                        copy.remove("template");
                        copy.remove("lock");
                        copy.put(
                                "name",
                                name != null ? name : "Copy-of-VM-" + (from.name() == null ? src : from.name()));
                        if (description != null && !description.isEmpty()) {
                            copy.put("description", description);
                        }
                        String storage = p.str("storage") != null
                                ? p.str("storage")
                                : from.sharedStorage ? "ceph-vm" : "local-lvm";
                        copy.put("scsi0", storage + ":vm-" + newid + "-disk-0,size=32G");
                        copy.put("net0", "virtio=" + cluster.nextMac() + ",bridge=vmbr0");
                        copy.put("smbios1", "uuid=" + UUID.randomUUID());
                        copy.put("meta", "creation-qemu=9.2.0,ctime=" + Cluster.epoch());
                        clone.config.clear();
                        clone.config.putAll(copy);
                        clone.sharedStorage = from.sharedStorage;
                        if (targetNode != null) {
                            clone.node = targetNode;
                        }
                        if (pool != null && cluster.pools.containsKey(pool)) {
                            cluster.pools.get(pool).members.add(newid);
                        }
                        return null;
                    }

                    @Override
                    public void abort() {
                        cluster.vms.remove(newid, clone);
                    }
                })
                .upid
                .toString();
    }

    private Object getConfig(Call c) {
        cluster.acl.requireVm(c.vmid(), Privileges.VM_AUDIT);
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        if (c.params().has("snapshot")) {
            throw Errors.handler("snapshot '" + c.params().str("snapshot") + "' does not exist");
        }
        Map<String, Object> out =
                new LinkedHashMap<>(c.params().bool("current", false) ? vm.config : vm.effectiveConfig());
        Object d = out.get("description");
        if (d != null) {
            out.put("description", d.toString().stripTrailing());
        }
        out.put("digest", digest(vm));
        return out;
    }

    static String digest(Vm vm) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(vm.config.toString().getBytes(StandardCharsets.UTF_8));
            sha1.update(vm.pending.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha1.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Object setConfig(Call c, boolean async) {
        ValidParams p = c.params();
        cluster.acl.requireVm(
                c.vmid(),
                p.has("cores") || p.has("sockets")
                        ? Privileges.VM_CONFIG_CPU
                        : p.has("memory") || p.has("balloon")
                                ? Privileges.VM_CONFIG_MEMORY
                                : Privileges.VM_CONFIG_OPTIONS);
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        if (vm.lock() != null) {
            throw Errors.handler(Errors.locked(vm.lock()));
        }
        Map<String, String> changes = new LinkedHashMap<>();
        for (String name : p.names()) {
            if (!Set.of("node", "vmid", "delete", "digest", "background_delay").contains(name)) {
                changes.put(name, p.str(name));
            }
        }
        List<String> deletes = new ArrayList<>();
        if (p.has("delete")) {
            for (String d : p.str("delete").split("[,;\\s]+", -1)) {
                if (!d.isEmpty()) {
                    deletes.add(d);
                }
            }
        }
        if (changes.isEmpty() && deletes.isEmpty()) {
            throw Errors.handler("no options specified");
        }
        if (p.has("digest") && !p.str("digest").equalsIgnoreCase(digest(vm))) {
            throw Errors.handler("checksum mismatch (file change by other user?)");
        }
        if (!async) {
            apply(vm, changes, deletes);
            return null;
        }
        if (p.has("background_delay")
                && cluster.delays.task(TaskKind.CONFIG).isZero()
                && !hasPendingFault(TaskKind.CONFIG)) {
            // The task would finish within the wait: Proxmox then answers null instead of a UPID.
            apply(vm, changes, deletes);
            return null;
        }
        return cluster.startTask(TaskKind.CONFIG, c.node(), Integer.toString(vm.vmid), () -> {
                    if (cluster.vms.get(vm.vmid) != vm) {
                        return Errors.configMissing(c.node(), vm.vmid);
                    }
                    apply(vm, changes, deletes);
                    return null;
                })
                .upid
                .toString();
    }

    private boolean hasPendingFault(TaskKind kind) {
        return !cluster.faults
                        .failingTasks
                        .getOrDefault(kind, new java.util.ArrayDeque<>())
                        .isEmpty()
                || !cluster.faults
                        .slowTasks
                        .getOrDefault(kind, new java.util.ArrayDeque<>())
                        .isEmpty();
    }

    private static void apply(Vm vm, Map<String, String> changes, List<String> deletes) {
        for (String d : deletes) {
            vm.config.remove(d);
            vm.pending.remove(d);
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            String k = e.getKey();
            Object value = typed(k, e.getValue());
            if (value == null) {
                vm.config.remove(k);
                vm.pending.remove(k);
            } else if (vm.running && HOTPLUG_PENDING.contains(k) && !value.equals(vm.config.get(k))) {
                vm.pending.put(k, value);
            } else {
                vm.config.put(k, value);
                vm.pending.remove(k);
            }
        }
    }

    /** The stored form: integers as numbers, memory and property strings as strings, tags normalised. */
    private static Object typed(String key, String value) {
        switch (key) {
            case "cores":
            case "sockets":
            case "balloon":
            case "onboot":
            case "protection":
                return Integer.parseInt(value.trim());
            case "tags":
                List<String> tags = Tags.normalise(value);
                return tags.isEmpty() ? null : String.join(";", tags);
            case "memory":
                return value.startsWith("current=") ? value.substring(8) : value;
            default:
                return value;
        }
    }
}
