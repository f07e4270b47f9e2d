package dev.bigfleet.proxmox.pvesim;

/**
 * {@code PUT /nodes/{node}/qemu/{vmid}/resize}: since PVE 8 a {@code resize} task. Everything but
 * the declared {@code VM.Config.Disk} check and the parameters is checked in the task: the lock,
 * the disk, {@code Datastore.AllocateSpace} on its storage, and that it only grows.
 */
final class DiskApi {
    private final Cluster cluster;

    DiskApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r, String vm) {
        r.add(
                "PUT",
                vm + "/resize",
                Permission.perm("/vms/{vmid}", "VM.Config.Disk"),
                VmApi.vmSchema()
                        .oneOf("disk", Drives.NAMES.toArray(new String[0]))
                        .required("disk")
                        .string(
                                "size",
                                true,
                                0,
                                v -> v.matches("\\+?\\d+(\\.\\d+)?[KMGT]?")
                                        ? null
                                        : "value does not match the regex pattern")
                        .string("digest", false, 40, null)
                        .rootOnly("skiplock"),
                this::resize);
    }

    private Object resize(Call c) {
        String node = c.node();
        int vmid = c.vmid();
        String disk = c.params().str("disk");
        String size = c.params().str("size");
        String digest = c.params().str("digest");
        return cluster.startTask(TaskKind.RESIZE, node, Integer.toString(vmid), () -> {
                    Vm vm = cluster.vms.get(vmid);
                    if (vm == null || !vm.node.equals(node)) {
                        return Errors.configMissing(node, vmid);
                    }
                    if (digest != null && !digest.equalsIgnoreCase(VmApi.digest(vm))) {
                        return "checksum mismatch (file change by other user?)";
                    }
                    if (vm.lock() != null) {
                        return Errors.locked(vm.lock());
                    }
                    Object value = vm.config.get(disk);
                    if (value == null) {
                        return "disk '" + disk + "' does not exist";
                    }
                    Drives.Drive d = Drives.parse(disk, value);
                    if (!d.hasVolume()) {
                        return "disk '" + disk + "' has no associated volume";
                    }
                    if (d.cdrom()) {
                        return "you can't resize a cdrom";
                    }
                    if (!cluster.acl.has("/storage/" + d.storage(), "Datastore.AllocateSpace")) {
                        return "Permission check failed (/storage/" + d.storage() + ", Datastore.AllocateSpace)";
                    }
                    Volume v = cluster.volumeOf(vm, d);
                    long current = v == null ? d.sizeBytes() : v.sizeBytes;
                    long wanted = size.startsWith("+")
                            ? current + Drives.parseSize(size.substring(1))
                            : Drives.parseSize(size);
                    if (wanted < current) {
                        return "shrinking disks is not supported";
                    }
                    if (wanted == current) {
                        return null;
                    }
                    if (v != null) {
                        StoragePool pool = cluster.storages.pool(v.storage, vm.node);
                        if (pool.spec.type().thick()) {
                            if (pool.avail() < wanted - current) {
                                return "error resizing volume '"
                                        + pool.spec.type().path(v.storage, v.volname)
                                        + "': command '/sbin/lvextend -L " + (wanted >> 10) + "k "
                                        + pool.spec.type().path(v.storage, v.volname) + "' failed: exit code 5";
                            }
                            v.allocatedBytes += wanted - current;
                        }
                        v.sizeBytes = wanted;
                    }
                    vm.config.put(disk, d.withFile(d.file(), wanted).print());
                    return null;
                })
                .upid
                .toString();
    }
}
