package dev.bigfleet.proxmox.pvesim;

/**
 * The token's rights. Unscoped, it may do everything; pool-scoped, only VMs that are members of
 * its pool (plus templates) exist for it, and the ACL check runs before any existence check, so a
 * missing VMID answers 403 rather than 500.
 */
final class Acl {
    private final Cluster cluster;
    private final String pool;

    Acl(Cluster cluster, String pool) {
        this.cluster = cluster;
        this.pool = pool;
    }

    boolean canSee(int vmid) {
        if (pool == null) {
            return true;
        }
        Vm vm = cluster.vms.get(vmid);
        if (vm != null && vm.template()) {
            return true;
        }
        Pool p = cluster.pools.get(pool);
        return p != null && p.members.contains(vmid);
    }

    /** @param privileges alternatives, any one of which suffices */
    void requireVm(int vmid, String... privileges) {
        if (!canSee(vmid)) {
            throw denied("/vms/" + vmid, privileges);
        }
    }

    /** A new VM needs VM.Allocate on its id, or on the pool it is created in. */
    void requireAllocate(int newid, String targetPool) {
        if (pool != null && !pool.equals(targetPool)) {
            throw denied("/vms/" + newid, Privileges.VM_ALLOCATE);
        }
    }

    void requirePool(String poolId) {
        if (pool != null && !pool.equals(poolId)) {
            throw denied("/pool/" + poolId, Privileges.POOL_AUDIT);
        }
    }

    private static ApiException denied(String path, String... privileges) {
        return new ApiException(
                403, "Permission check failed (" + path + ", " + String.join("|", privileges) + ")", null, false);
    }
}
