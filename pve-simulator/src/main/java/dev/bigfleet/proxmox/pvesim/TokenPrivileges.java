package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The API token's ACL: privileges granted on paths ({@code /pool/bigfleet}, {@code /storage},
 * {@code /nodes}, ...), each propagating to the paths below. As in Proxmox, the entry on the most
 * specific path replaces those above it, and a VM (or storage) in a pool also gets what is granted
 * on the pool.
 */
public final class TokenPrivileges {
    /** Every privilege of Proxmox VE 9 (as in pve-access-control), for {@code Administrator} on {@code /}. */
    static final List<String> ALL = List.of(
            "VM.Config.Disk",
            "VM.Config.CPU",
            "VM.Config.Memory",
            "VM.Config.Network",
            "VM.Config.HWType",
            "VM.Config.Options",
            "VM.Allocate",
            "VM.Clone",
            "VM.GuestAgent.Unrestricted",
            "VM.Migrate",
            "VM.Replicate",
            "VM.Snapshot",
            "VM.Snapshot.Rollback",
            "VM.Config.CDROM",
            "VM.Config.Cloudinit",
            "VM.Console",
            "VM.Backup",
            "VM.GuestAgent.FileRead",
            "VM.GuestAgent.FileSystemMgmt",
            "VM.GuestAgent.FileWrite",
            "VM.PowerMgmt",
            "VM.Audit",
            "VM.GuestAgent.Audit",
            "Sys.PowerMgmt",
            "Sys.Modify",
            "Sys.Incoming",
            "Sys.AccessNetwork",
            "Sys.Console",
            "Sys.Syslog",
            "Sys.Audit",
            "Datastore.Allocate",
            "Datastore.AllocateTemplate",
            "Datastore.AllocateSpace",
            "Datastore.Audit",
            "SDN.Allocate",
            "SDN.Audit",
            "SDN.Use",
            "User.Modify",
            "Group.Allocate",
            "Realm.AllocateUser",
            "Realm.Allocate",
            "Pool.Allocate",
            "Pool.Audit",
            "Mapping.Modify",
            "Mapping.Use",
            "Mapping.Audit",
            "Permissions.Modify");

    /** What the provider's clones need on their pool (the README's least-privilege role). */
    public static final List<String> PROVISIONER = List.of(
            "VM.Audit",
            "VM.Clone",
            "VM.Allocate",
            "VM.Config.CPU",
            "VM.Config.Memory",
            "VM.Config.Options",
            "VM.Config.Disk",
            "VM.Config.Network",
            "VM.PowerMgmt",
            "VM.GuestAgent.Audit",
            "VM.GuestAgent.FileWrite",
            "VM.GuestAgent.Unrestricted",
            "Pool.Audit");

    private final Map<String, Set<String>> grants = new LinkedHashMap<>();

    private TokenPrivileges() {}

    /** No privilege anywhere; add them with {@link #grant}. */
    public static TokenPrivileges none() {
        return new TokenPrivileges();
    }

    /** Every privilege on {@code /} (a token without privilege separation of {@code root@pam}'s like). */
    public static TokenPrivileges administrator() {
        return none().grant("/", ALL.toArray(new String[0]));
    }

    /**
     * The least-privilege setup: {@link #PROVISIONER} on {@code /pool/<pool>}, {@code
     * Datastore.AllocateSpace} on {@code /storage}, {@code Sys.Audit} on {@code /nodes} and {@code
     * SDN.Use} on {@code /sdn/zones/localnetwork}. Templates outside the pool need {@code VM.Audit}
     * and {@code VM.Clone} granted on {@code /vms/<id>} besides ({@link SimulatorConfig} does that
     * for {@link SimulatorConfig.Builder#poolScopedToken}).
     */
    public static TokenPrivileges poolScoped(String pool) {
        return none().grant("/pool/" + pool, PROVISIONER.toArray(new String[0]))
                .grant("/storage", "Datastore.AllocateSpace")
                .grant("/nodes", "Sys.Audit")
                .grant("/sdn/zones/localnetwork", "SDN.Use");
    }

    /** Adds privileges on {@code path}, propagating below it. */
    public TokenPrivileges grant(String path, String... privileges) {
        Objects.requireNonNull(path, "path");
        for (String p : privileges) {
            if (!ALL.contains(p)) {
                throw new IllegalArgumentException("invalid privilege '" + p + "'");
            }
        }
        grants.computeIfAbsent(normalize(path), k -> new LinkedHashSet<>()).addAll(List.of(privileges));
        return this;
    }

    /** Removes privileges from the entry on exactly {@code path}. */
    public TokenPrivileges revoke(String path, String... privileges) {
        Set<String> s = grants.get(normalize(path));
        if (s != null) {
            s.removeAll(List.of(privileges));
        }
        return this;
    }

    /** The paths that carry an entry, for {@code GET /access/permissions} without a path. */
    Set<String> paths() {
        return grants.keySet();
    }

    /** The privileges of the most specific entry on {@code path} or above it ({@code roles()} in Proxmox). */
    Set<String> onPath(String path) {
        String p = normalize(path);
        Set<String> found = grants.getOrDefault("/", Set.of());
        StringBuilder prefix = new StringBuilder();
        for (String part : p.substring(1).split("/", -1)) {
            if (part.isEmpty()) {
                continue;
            }
            prefix.append('/').append(part);
            Set<String> here = grants.get(prefix.toString());
            if (here != null) {
                found = here;
            }
        }
        return found;
    }

    static String normalize(String path) {
        String p = path.replaceAll("/+", "/");
        if (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.startsWith("/") ? p : "/" + p;
    }
}
