package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * qemu-server's {@code check_vm_modify_config_perm} for the options the simulator takes: each
 * option (set or deleted) needs the privilege of its group on {@code /vms/<id>}, tags need
 * {@code VM.Config.Options}, and a NIC's bridge needs {@code SDN.Use} in its zone ({@link BridgeAccess}).
 */
final class ConfigPermissions {
    private static final Set<String> CPU = Set.of("cores", "cpu", "cpulimit", "cpuunits", "numa", "sockets", "vcpus");
    private static final Set<String> MEMORY = Set.of("memory", "balloon", "shares");
    private static final Set<String> OPTIONS =
            Set.of("agent", "description", "name", "onboot", "ostype", "protection", "tags");

    private ConfigPermissions() {}

    static void check(Cluster cluster, int vmid, List<String> deletes, Map<String, String> changes) {
        Acl acl = cluster.acl;
        String path = "/vms/" + vmid;
        for (String key : deletes) {
            requireFor(acl, path, key);
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            requireFor(acl, path, e.getKey());
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            if (e.getKey().matches("hostpci\\d+")) {
                // qemu-server's check_hostpci_perm: a mapped device needs Mapping.Use on it
                Map<String, String> dev = QemuFormats.HOSTPCI.parse(e.getValue());
                if (dev.containsKey("mapping")) {
                    acl.require("/mapping/pci/" + dev.get("mapping"), "Mapping.Use");
                } else {
                    throw Errors.handler("only root can set '" + e.getKey() + "' config for non-mapped devices");
                }
            }
            if (e.getKey().matches("net\\d+")) {
                BridgeAccess.requireUse(cluster, QemuFormats.NET.parse(e.getValue()));
            }
        }
    }

    /**
     * A drive's privilege depends on its value (a CD-ROM, a cloud-init drive or a disk): qemu-server
     * checks it while it applies the update ({@link CdromConfig#requireDrivePerms}).
     */
    private static boolean valueDependent(String key) {
        return Drives.isDrive(key) || key.equals("cdrom");
    }

    /** qemu-server's cloud-init options, which either privilege lets a token write. */
    private static final Set<String> CLOUDINIT =
            Set.of("cicustom", "cipassword", "citype", "ciuser", "ciupgrade", "nameserver", "searchdomain", "sshkeys");

    private static void requireFor(Acl acl, String path, String key) {
        if (valueDependent(key)) {
            return;
        }
        if (CLOUDINIT.contains(key) || key.matches("ipconfig\\d+")) {
            acl.requireAny(path, "VM.Config.Cloudinit", "VM.Config.Network");
            return;
        }
        acl.require(path, privilege(key));
    }

    private static String privilege(String key) {
        if (CPU.contains(key)) {
            return "VM.Config.CPU";
        }
        if (MEMORY.contains(key)) {
            return "VM.Config.Memory";
        }
        if (key.matches("net\\d+")) {
            return "VM.Config.Network";
        }
        if (OPTIONS.contains(key)) {
            return "VM.Config.Options";
        }
        if (key.matches("hostpci\\d+") || key.equals("machine")) {
            return "VM.Config.HWType";
        }
        if (key.equals("boot") || key.equals("bootdisk") || Drives.isDrive(key)) {
            return "VM.Config.Disk";
        }
        return "VM.Config.Options";
    }
}
