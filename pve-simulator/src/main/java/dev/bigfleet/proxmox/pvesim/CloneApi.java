package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /nodes/{node}/qemu/{vmid}/clone}, checked in qemu-server's order: the declared
 * permissions, the pool, target node and storage, the source's lock, linked-clone parameters,
 * storage access (every volume shared for {@code target=}), bridges, the new VMID, and each
 * drive's clone or copy feature. What passes becomes a {@code qmclone} task ({@link CloneTask}).
 */
final class CloneApi {
    private final Cluster cluster;

    CloneApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r, String vm) {
        r.add(
                "POST",
                vm + "/clone",
                Permission.and(
                        Permission.perm("/vms/{vmid}", "VM.Clone"),
                        Permission.or(
                                Permission.perm("/vms/{newid}", "VM.Allocate"),
                                Permission.permIfGiven("pool", "/pool/{pool}", "VM.Allocate"))),
                VmApi.vmSchema()
                        .vmid("newid", true)
                        .string("name", false, 0, ParamSchema.DNS_NAME_CHECK)
                        .string("description", false)
                        .string("pool", false, 0, ParamSchema.POOL_ID_CHECK)
                        .string("target", false, 0, ParamSchema.NODE_CHECK)
                        .bool("full")
                        .string("storage", false, 0, ParamSchema.STORAGE_ID_CHECK)
                        .oneOf("format", "raw", "qcow2", "vmdk")
                        .string("snapname", false, 40, ParamSchema.CONFIG_ID_CHECK)
                        .integer("bwlimit", false, 0, Long.MAX_VALUE),
                this::clone);
    }

    private Object clone(Call c) {
        ValidParams p = c.params();
        String node = c.node();
        int src = c.vmid();
        int newid = p.integer("newid");
        String target = p.str("target");
        if (target != null && (target.equals(node) || target.equals("localhost"))) {
            target = null;
        }
        String pool = p.str("pool");
        if (pool != null && !cluster.pools.containsKey(pool)) {
            throw Acl.denied("pool '" + pool + "' does not exist");
        }
        if (target != null && !cluster.nodes.containsKey(target)) {
            throw Errors.handler("no such cluster node '" + target + "'");
        }
        String storage = p.str("storage");
        if (storage != null) {
            StorageSpec s = cluster.storages.requireEnabled(storage, node);
            if (!s.holdsImages()) {
                throw Errors.param("storage", "storage '" + storage + "' does not support vm images");
            }
            if (target != null) {
                cluster.storages.requireEnabled(storage, target);
                if (!s.shared()) {
                    throw Errors.handler("can't clone to non-shared storage '" + storage + "'");
                }
            }
        }
        Vm source = cluster.vms.get(src);
        if (source == null || !source.node.equals(node)) {
            throw Errors.handler("unable to find configuration file for VM " + src + " on node '" + node + "'");
        }
        if (source.lock() != null) {
            throw Errors.handler(Errors.locked(source.lock()));
        }
        if (p.has("snapname")) {
            throw Errors.handler("snapshot '" + p.str("snapname") + "' does not exist");
        }
        boolean full = p.bool("full", !source.template());
        if (!full && storage != null) {
            throw Errors.handler("parameter 'storage' not allowed for linked clones");
        }
        if (!full && p.has("format")) {
            throw Errors.handler("parameter 'format' not allowed for linked clones");
        }
        boolean sharedVm = checkStorageAccess(source, storage);
        checkBridgeAccess(source);
        if (target != null && !sharedVm) {
            throw Errors.handler("can't clone VM to node '" + target + "' (VM uses local storage)");
        }
        cluster.requireQuorum();
        Vm existing = cluster.vms.get(newid);
        Container ct = cluster.containers.get(newid);
        String holder = existing != null ? existing.node : ct != null ? ct.node() : null;
        if (holder != null && holder.equals(node)) {
            throw Errors.handler("unable to create VM " + newid + ": config file already exists");
        }
        long copied = checkFeatures(source, full);
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
        CloneTask task =
                new CloneTask(cluster, src, clone, full, storage, target, pool, p.str("name"), p.str("description"));
        return cluster.startTask(TaskKind.CLONE, node, id, cluster.delays.clone(full, copied), task)
                .upid
                .toString();
    }

    /**
     * qemu-server's {@code check_storage_access_clone}: whether every volume (CD-ROMs included) is
     * on shared storage, with {@code Datastore.AllocateSpace} needed on the storage of each disk
     * (or on {@code storage}, where the copies go).
     */
    private boolean checkStorageAccess(Vm source, String storage) {
        boolean shared = true;
        for (Drives.Drive d : Drives.of(source.config)) {
            if (d.file().equals("none") || d.file().isEmpty()) {
                continue;
            }
            if (d.cdrom() && d.file().equals("cdrom")) {
                cluster.acl.require("/", "Sys.Console");
                continue;
            }
            StorageSpec s = cluster.storages.require(d.storage());
            shared &= s.shared();
            if (!d.cdrom()) {
                cluster.acl.require("/storage/" + (storage != null ? storage : d.storage()), "Datastore.AllocateSpace");
            }
        }
        return shared;
    }

    /** qemu-server's {@code check_bridge_access} on the source's NICs ({@link BridgeAccess}). */
    private void checkBridgeAccess(Vm vm) {
        for (String key : new java.util.TreeSet<>(vm.config.keySet())) {
            if (key.matches("net\\d+")) {
                BridgeAccess.requireUse(
                        cluster, QemuFormats.NET.parse(vm.config.get(key).toString()));
            }
        }
    }

    /**
     * Each disk must support a copy (full clone, and always for cloud-init) or a clone (linked) on
     * its storage: the clone feature needs a base volume on a storage type that has it.
     *
     * @return the bytes a full copy writes, for the task's duration
     */
    private long checkFeatures(Vm source, boolean full) {
        long bytes = 0;
        Set<String> copyOnly = Set.of("tpmstate0");
        for (Drives.Drive d : Drives.of(source.config)) {
            if (d.plainCdrom() || !d.hasVolume()) {
                continue;
            }
            Volume v = cluster.volumeOf(source, d);
            StorageSpec s = cluster.storages.require(d.storage());
            if (full || d.cloudinit() || copyOnly.contains(d.key())) {
                bytes += v == null ? d.sizeBytes() : v.sizeBytes;
                continue;
            }
            if (v == null || !v.base || !s.type().linkedClones()) {
                throw Errors.handler("Linked clone feature is not supported for '" + d.file() + "' (" + d.key() + ")");
            }
        }
        return bytes;
    }

    /** The config a clone starts from: everything but snapshot state and unused disks. */
    static Map<String, Object> copyable(Vm from) {
        LinkedHashMap<String, Object> copy = new LinkedHashMap<>(from.config);
        copy.keySet()
                .removeIf(k -> k.matches("unused\\d+|parent|snaptime|vmstate|snapstate|runningcpu|runningmachine"));
        copy.remove("template");
        copy.remove("lock");
        return copy;
    }
}
