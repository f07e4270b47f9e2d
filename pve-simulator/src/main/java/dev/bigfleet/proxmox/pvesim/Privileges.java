package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Set;

/**
 * Proxmox VE's privilege names, as its access control defines them in PVE 8 and in PVE 9, and the
 * ones this simulator checks. PVE 9 replaced {@code VM.Monitor} with the {@code VM.GuestAgent.*}
 * privileges and added {@code VM.Replicate}; the rest is the same in both.
 */
public final class Privileges {
    private Privileges() {}

    public static final String VM_AUDIT = "VM.Audit";
    public static final String VM_CLONE = "VM.Clone";
    public static final String VM_ALLOCATE = "VM.Allocate";
    public static final String VM_CONFIG_CPU = "VM.Config.CPU";
    public static final String VM_CONFIG_MEMORY = "VM.Config.Memory";
    public static final String VM_CONFIG_OPTIONS = "VM.Config.Options";
    public static final String VM_POWER_MGMT = "VM.PowerMgmt";
    public static final String VM_GUEST_AGENT_AUDIT = "VM.GuestAgent.Audit";
    public static final String VM_GUEST_AGENT_FILE_READ = "VM.GuestAgent.FileRead";
    public static final String VM_GUEST_AGENT_FILE_WRITE = "VM.GuestAgent.FileWrite";
    public static final String VM_GUEST_AGENT_UNRESTRICTED = "VM.GuestAgent.Unrestricted";
    public static final String POOL_AUDIT = "Pool.Audit";

    private static final List<String> COMMON = List.of(
            "VM.Allocate",
            "VM.Audit",
            "VM.Backup",
            "VM.Clone",
            "VM.Config.CDROM",
            "VM.Config.CPU",
            "VM.Config.Cloudinit",
            "VM.Config.Disk",
            "VM.Config.HWType",
            "VM.Config.Memory",
            "VM.Config.Network",
            "VM.Config.Options",
            "VM.Console",
            "VM.Migrate",
            "VM.PowerMgmt",
            "VM.Snapshot",
            "VM.Snapshot.Rollback",
            "Sys.AccessNetwork",
            "Sys.Audit",
            "Sys.Console",
            "Sys.Incoming",
            "Sys.Modify",
            "Sys.PowerMgmt",
            "Sys.Syslog",
            "Datastore.Allocate",
            "Datastore.AllocateSpace",
            "Datastore.AllocateTemplate",
            "Datastore.Audit",
            "SDN.Allocate",
            "SDN.Audit",
            "SDN.Use",
            "Group.Allocate",
            "Realm.Allocate",
            "Realm.AllocateUser",
            "User.Modify",
            "Pool.Allocate",
            "Pool.Audit",
            "Mapping.Audit",
            "Mapping.Modify",
            "Mapping.Use",
            "Permissions.Modify");

    /** Every privilege a PVE 8 role may hold. */
    public static final Set<String> PVE8 = with(COMMON, "VM.Monitor");

    /** Every privilege a PVE 9 role may hold. */
    public static final Set<String> PVE9 = with(
            COMMON,
            "VM.GuestAgent.Audit",
            "VM.GuestAgent.FileRead",
            "VM.GuestAgent.FileSystemMgmt",
            "VM.GuestAgent.FileWrite",
            "VM.GuestAgent.Unrestricted",
            "VM.Replicate");

    /** The privileges the simulator's API checks (PVE 9 names), whatever a token holds otherwise. */
    public static final Set<String> CHECKED = Set.of(
            VM_AUDIT,
            VM_CLONE,
            VM_ALLOCATE,
            VM_CONFIG_CPU,
            VM_CONFIG_MEMORY,
            VM_CONFIG_OPTIONS,
            VM_POWER_MGMT,
            VM_GUEST_AGENT_AUDIT,
            VM_GUEST_AGENT_FILE_READ,
            VM_GUEST_AGENT_FILE_WRITE,
            VM_GUEST_AGENT_UNRESTRICTED,
            POOL_AUDIT);

    /** The privileges of the version: PVE 8 or 9. */
    public static Set<String> of(int pveMajorVersion) {
        return switch (pveMajorVersion) {
            case 8 -> PVE8;
            case 9 -> PVE9;
            default -> throw new IllegalArgumentException("PVE " + pveMajorVersion + " is not modelled (8 or 9)");
        };
    }

    private static Set<String> with(List<String> common, String... more) {
        java.util.Set<String> all = new java.util.TreeSet<>(common);
        all.addAll(List.of(more));
        return java.util.Collections.unmodifiableSet(all);
    }
}
