package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Checks the token's privileges as Proxmox does: the ACL entry on the path or above it, plus, for
 * {@code /vms/<id>}, what is granted on the pool holding the VM. A failed check is 403 {@code
 * Permission check failed (<path>, <privilege>)}.
 */
final class Acl {
    private final Cluster cluster;
    private final TokenPrivileges token;

    Acl(Cluster cluster, TokenPrivileges token) {
        this.cluster = cluster;
        this.token = token;
    }

    /** The privileges effective on {@code path} ({@code $rpcenv->permissions}). */
    Set<String> privileges(String path) {
        String p = TokenPrivileges.normalize(path);
        Set<String> out = new LinkedHashSet<>(token.onPath(p));
        String pool = null;
        if (p.matches("/vms/\\d+")) {
            pool = cluster.poolOf(Integer.parseInt(p.substring(5)));
        }
        if (pool != null) {
            out.addAll(token.onPath("/pool/" + pool));
        }
        return out;
    }

    boolean has(String path, String privilege) {
        return privileges(path).contains(privilege);
    }

    /** Whether the VM is listed for the token ({@code VM.Audit} on {@code /vms/<id>}). */
    boolean canSee(int vmid) {
        return has("/vms/" + vmid, "VM.Audit");
    }

    /** {@code $rpcenv->check}: every privilege is needed; the first missing one is named. */
    void require(String path, String... privileges) {
        Set<String> have = privileges(path);
        for (String p : privileges) {
            if (!have.contains(p)) {
                throw denied(path + ", " + p);
            }
        }
    }

    /** {@code $rpcenv->check_any}: one of the privileges suffices; all are named when none is held. */
    void requireAny(String path, String... privileges) {
        Set<String> have = privileges(path);
        for (String p : privileges) {
            if (have.contains(p)) {
                return;
            }
        }
        throw denied(path + ", " + String.join("|", privileges));
    }

    /**
     * pve-access-control's {@code check_sdn_bridge}: whether one of the privileges is held on {@code
     * /sdn/zones/<zone>/<bridge>}, or on one of the bridge's VLANs that has an ACL entry of its own
     * ({@code /sdn/zones/<zone>/<bridge>/<tag>}).
     */
    boolean canAccessBridge(String zone, String bridge, String... privileges) {
        String path = "/sdn/zones/" + zone + "/" + bridge;
        if (hasAny(path, privileges)) {
            return true;
        }
        for (String entry : token.paths()) {
            if (entry.startsWith(path + "/")
                    && entry.indexOf('/', path.length() + 1) < 0
                    && hasAny(entry, privileges)) {
                return true;
            }
        }
        return false;
    }

    private boolean hasAny(String path, String... privileges) {
        Set<String> have = privileges(path);
        for (String p : privileges) {
            if (have.contains(p)) {
                return true;
            }
        }
        return false;
    }

    /** @param privileges alternatives, any one of which suffices */
    void requireVm(int vmid, String... privileges) {
        requireAny("/vms/" + vmid, privileges);
    }

    void requirePool(String poolId) {
        require("/pool/" + poolId, "Pool.Audit");
    }

    /** A denial, named as {@code raise_perm_exc} names it; without a detail for a failed "or" of checks. */
    static ApiException denied(String what) {
        return new ApiException(
                403, what == null ? "Permission check failed" : "Permission check failed (" + what + ")", null, false);
    }
}
