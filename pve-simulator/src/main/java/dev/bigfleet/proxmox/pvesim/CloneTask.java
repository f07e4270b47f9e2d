package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The {@code qmclone} worker: when its time is up it copies (full) or links (linked) each disk of
 * the source onto the storage, writes the clone's config, moves it to the target node and adds it
 * to the pool. A storage lock that cannot be had, or a copy that does not fit, fails the task and
 * leaves nothing behind, as qemu-server's cleanup does.
 */
final class CloneTask implements TaskBody {
    private final Cluster cluster;
    private final int src;
    private final Vm clone;
    private final boolean full;
    private final String storage;
    private final String target;
    private final String pool;
    private final String name;
    private final String description;

    CloneTask(
            Cluster cluster,
            int src,
            Vm clone,
            boolean full,
            String storage,
            String target,
            String pool,
            String name,
            String description) {
        this.cluster = cluster;
        this.src = src;
        this.clone = clone;
        this.full = full;
        this.storage = storage;
        this.target = target;
        this.pool = pool;
        this.name = name;
        this.description = description;
    }

    @Override
    public String finish() {
        int newid = clone.vmid;
        if (cluster.vms.get(newid) != clone) {
            return "clone failed: VM " + newid + " vanished during the clone";
        }
        Vm from = cluster.vms.get(src);
        if (from == null) {
            cluster.vms.remove(newid);
            return "clone failed: source VM " + src + " vanished during the clone";
        }
        Map<String, Object> copy = CloneApi.copyable(from);
        List<Volume> made = new ArrayList<>();
        String node = clone.node;
        for (Drives.Drive d : Drives.of(from.config)) {
            if (d.plainCdrom() || !d.hasVolume()) {
                continue;
            }
            Volume base = cluster.volumeOf(from, d);
            boolean copyIt = full || d.cloudinit() || d.key().equals("tpmstate0");
            String sid = copyIt && storage != null ? storage : d.storage();
            StoragePool dest = cluster.storages.pool(sid, node);
            String failure = cluster.faults.takeStorageLockTimeout(dest.spec);
            long size = base == null ? d.sizeBytes() : base.sizeBytes;
            if (failure == null && copyIt && dest.avail() < size) {
                failure = "copy failed: command '/usr/bin/qemu-img convert -p -n -f "
                        + (base == null
                                ? "raw"
                                : cluster.storages.spec(base.storage).type().format())
                        + " -O " + dest.spec.type().format() + " "
                        + (base == null
                                ? d.file()
                                : cluster.storages.spec(base.storage).type().path(base.storage, base.volname))
                        + " " + dest.spec.type().path(sid, dest.spec.type().volname(newid, dest.freeDiskName(newid)))
                        + "' failed: exit code 1";
            }
            if (failure != null) {
                made.forEach(v -> cluster.storages.free(v, node));
                cluster.vms.remove(newid, clone);
                return "clone failed: " + failure;
            }
            Volume v;
            if (copyIt) {
                String disk = d.cloudinit() ? "vm-" + newid + "-cloudinit" : dest.freeDiskName(newid);
                v = cluster.storages.add(dest, dest.spec.type().volname(newid, disk), newid, false, null, size, size);
            } else {
                v = cluster.storages.add(
                        dest,
                        dest.spec.type().linkedVolname(base, newid, dest.freeDiskName(newid)),
                        newid,
                        false,
                        base,
                        size,
                        0);
            }
            made.add(v);
            copy.put(d.key(), d.withFile(v.volid(), d.cloudinit() ? 0 : size).print());
        }
        copy.put("name", name != null ? name : "Copy-of-VM-" + (from.name() == null ? src : from.name()));
        if (description != null && !description.isEmpty()) {
            copy.put("description", description);
        }
        for (String key : List.copyOf(copy.keySet())) {
            if (key.matches("net\\d+")) {
                var net =
                        new LinkedHashMap<>(QemuFormats.NET.parse(copy.get(key).toString()));
                net.put("macaddr", cluster.nextMac());
                copy.put(key, QemuFormats.printNet(net));
            }
        }
        copy.put("smbios1", "uuid=" + UUID.randomUUID());
        copy.put("meta", "creation-qemu=9.2.0,ctime=" + Cluster.epoch());
        GuestDisk source = from.disk != null ? from.disk : GuestDisk.IMAGE;
        java.nio.file.Path dir = cluster.guests.newDir("disk", newid);
        clone.disk = cluster.guests.cloneDisk(source, full, dir);
        clone.config.clear();
        clone.config.putAll(copy);
        if (target != null) {
            clone.node = target;
        }
        if (pool != null && cluster.pools.containsKey(pool)) {
            cluster.pools.get(pool).members.add(newid);
        }
        return null;
    }

    @Override
    public void abort() {
        cluster.vms.remove(clone.vmid, clone);
    }
}
