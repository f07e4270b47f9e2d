package dev.bigfleet.proxmox.pvesim;

/**
 * {@code POST /nodes/{node}/qemu/{vmid}/migrate} as qemu-server's {@code migrate_vm} answers it: the
 * target checked synchronously (the local node is a parameter error, an unknown node and a lost
 * quorum are refusals), a locked VM refused, a running VM refused without {@code online} (a stopped
 * one with {@code online} migrates offline), then a {@code qmigrate} task on the source node, the
 * VM locked ({@code migrate}) while it runs, at whose end the VM, running or not, is on the target
 * with its VMID, config and guest.
 */
final class MigrateApi {
    private final Cluster cluster;

    MigrateApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "POST",
                "/nodes/{node}/qemu/{vmid}/migrate",
                Permission.perm("/vms/{vmid}", "VM.Migrate"),
                VmApi.vmSchema()
                        .string("target", true, 0, ParamSchema.NODE_CHECK)
                        .bool("online")
                        .bool("with-local-disks")
                        .bool("with-conntrack-state")
                        .integer("bwlimit", false, 0, Long.MAX_VALUE)
                        .string("targetstorage", false, 0, ParamSchema.STORAGE_PAIR_LIST_CHECK)
                        .rootOnly("force", "migration_type", "migration_network"),
                this::migrate);
    }

    private Object migrate(Call c) {
        ValidParams p = c.params();
        String node = c.node();
        String target = p.str("target");
        if (target.equals(node)) {
            throw Errors.param("target", "target is local node.");
        }
        cluster.requireQuorum();
        if (!cluster.nodes.containsKey(target)) {
            throw Errors.handler("no such cluster node '" + target + "'");
        }
        Vm vm = cluster.vmOn(node, c.vmid());
        if (vm.lock() != null) {
            throw Errors.handler(Errors.locked(vm.lock()));
        }
        if (vm.running && !p.bool("online", false)) {
            throw Errors.handler("can't migrate running VM without --online");
        }
        vm.config.put("lock", "migrate"); // QemuMigrate holds the config lock while it runs
        return cluster.startTask(TaskKind.MIGRATE, node, Integer.toString(vm.vmid), () -> {
                    if (cluster.vms.get(vm.vmid) != vm) {
                        return Errors.configMissing(node, vm.vmid);
                    }
                    vm.config.remove("lock");
                    vm.node = target;
                    return null;
                })
                .upid
                .toString();
    }
}
