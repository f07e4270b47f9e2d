package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.Map;

/** Per-VM status, power (start, stop, shutdown) and destroy calls. */
final class VmPowerApi {
    private final Cluster cluster;

    VmPowerApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r, String vm) {
        r.add(
                "GET",
                vm + "/status/current",
                Permission.perm("/vms/{vmid}", "VM.Audit"),
                VmApi.vmSchema(),
                this::current);
        r.add(
                "POST",
                vm + "/status/start",
                POWER,
                VmApi.vmSchema()
                        .integer("timeout", false, 0, 86400)
                        .rootOnly(
                                "skiplock",
                                "migratedfrom",
                                "stateuri",
                                "machine",
                                "targetstorage",
                                "force-cpu",
                                "migration_network",
                                "migration_type",
                                "nets-host-mtu"),
                this::start);
        r.add(
                "POST",
                vm + "/status/stop",
                POWER,
                VmApi.vmSchema()
                        .integer("timeout", false, 0, Long.MAX_VALUE)
                        .bool("overrule-shutdown")
                        .bool("keepActive")
                        .rootOnly("skiplock", "migratedfrom"),
                this::stop);
        r.add(
                "POST",
                vm + "/status/shutdown",
                POWER,
                VmApi.vmSchema()
                        .integer("timeout", false, 0, Long.MAX_VALUE)
                        .bool("forceStop")
                        .bool("keepActive")
                        .rootOnly("skiplock"),
                this::shutdown);
        r.add(
                "DELETE",
                vm,
                Permission.perm("/vms/{vmid}", "VM.Allocate"),
                VmApi.vmSchema()
                        .bool("purge")
                        .bool("destroy-unreferenced-disks")
                        .rootOnly("skiplock"),
                this::destroy);
    }

    private static final Permission POWER = Permission.perm("/vms/{vmid}", "VM.PowerMgmt");

    private Object current(Call c) {
        Vm vm = cluster.vmOn(c.node(), c.vmid());
        long now = Cluster.now();
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("vmid", vm.vmid);
        s.put("status", vm.running ? "running" : "stopped");
        s.put("qmpstatus", vm.running ? "running" : "stopped");
        s.put("name", vm.name() == null ? "VM " + vm.vmid : vm.name());
        if (vm.running) {
            s.put("pid", 260_000 + vm.vmid % 10_000);
            s.put("running-machine", "pc-i440fx-9.2+pve1");
            s.put("running-qemu", "9.2.0");
        }
        s.put("uptime", vm.running ? Math.max(1, (now - vm.startedAtNanos) / 1_000_000_000L) : 0);
        s.put("cpus", vm.vcpus());
        s.put("cpu", vm.running ? 0.031 : 0);
        s.put("maxmem", (long) vm.memoryMib() << 20);
        s.put("mem", vm.running ? ((long) vm.memoryMib() << 20) / 5 : 0);
        s.put("maxdisk", Resources.DISK_BYTES);
        s.put("disk", 0);
        s.put("netin", vm.running ? 4100 : 0);
        s.put("netout", vm.running ? 980 : 0);
        s.put("diskread", vm.running ? 1048576 : 0);
        s.put("diskwrite", 0);
        if (vm.agentEnabled()) {
            s.put("agent", 1);
        }
        s.put("ha", Map.of("managed", 0));
        if (vm.config.get("tags") != null) {
            s.put("tags", vm.config.get("tags"));
        }
        if (vm.lock() != null) {
            s.put("lock", vm.lock());
        }
        if (vm.template()) {
            s.put("template", 1);
        }
        return s;
    }

    /** Power calls never fail synchronously on a missing or busy VM: their task does. */
    private String powerPrecheck(String node, int vmid) {
        Vm vm = cluster.vms.get(vmid);
        if (vm == null || !vm.node.equals(node)) {
            return Errors.configMissing(node, vmid);
        }
        return vm.lock() != null ? Errors.locked(vm.lock()) : null;
    }

    private Object start(Call c) {
        String node = c.node();
        int vmid = c.vmid();
        String id = Integer.toString(vmid);
        String problem = powerPrecheck(node, vmid);
        Vm vm = cluster.vms.get(vmid);
        if (problem == null && vm.template()) {
            problem = "you can't start a vm if it's a template";
        }
        if (problem == null && vm.running) {
            problem = "VM " + vmid + " already running";
        }
        if (problem != null) {
            return cluster.failedTask(TaskKind.START, node, id, problem).upid.toString();
        }
        return cluster.startTask(TaskKind.START, node, id, () -> {
                    if (cluster.vms.get(vmid) != vm || !vm.node.equals(node)) {
                        return Errors.configMissing(node, vmid);
                    }
                    if (vm.running) {
                        return "VM " + vmid + " already running";
                    }
                    String iso = missingIso(vm);
                    if (iso != null) {
                        return "volume '" + iso + "' does not exist";
                    }
                    String missing = missingBridge(vm);
                    if (missing != null) {
                        return "bridge '" + missing + "' does not exist";
                    }
                    String mtu = mtuProblem(vm, node);
                    if (mtu != null) {
                        return mtu;
                    }
                    String pci = pciProblem(vm, node);
                    if (pci != null) {
                        return pci;
                    }
                    String pages = Hugepages.problem(cluster, vm, node);
                    if (pages != null) {
                        return pages;
                    }
                    VmLifecycle.powerOn(cluster, vm);
                    return null;
                })
                .upid
                .toString();
    }

    /**
     * What qemu-server's start says of the VM's mapped PCI devices, against the cluster's mappings as
     * they are now: a mapping that is gone or has no device on the node, a PCIe device without the
     * q35 machine, or no free device of the mapping left on the node (each device is used by one
     * running VM at a time); null when every device finds one.
     */
    private String pciProblem(Vm vm, String node) {
        java.util.List<Map<String, String>> devices = hostpci(vm);
        for (Map<String, String> d : devices) {
            String mapping = d.get("mapping");
            if (mapping != null && devicesOn(mapping, node) == 0) {
                return "PCI device mapping not found for '" + mapping + "'";
            }
        }
        String machine = String.valueOf(vm.config.getOrDefault("machine", ""));
        for (Map<String, String> d : devices) {
            if ("1".equals(d.get("pcie")) && !machine.contains("q35")) {
                return "q35 machine model is not enabled";
            }
        }
        Map<String, Integer> taken = new java.util.HashMap<>();
        for (Vm other : cluster.vms.values()) {
            if (other != vm && other.running && other.node.equals(node)) {
                for (Map<String, String> d : hostpci(other)) {
                    if (d.get("mapping") != null) {
                        taken.merge(d.get("mapping"), 1, Integer::sum);
                    }
                }
            }
        }
        for (int i = 0; i < 16; i++) {
            Object raw = vm.config.get("hostpci" + i);
            if (raw == null) {
                continue;
            }
            String mapping = QemuFormats.HOSTPCI.parse(raw.toString()).get("mapping");
            if (mapping == null) {
                continue;
            }
            if (taken.getOrDefault(mapping, 0) >= devicesOn(mapping, node)) {
                return "could not find a free device for 'hostpci" + i + "'";
            }
            taken.merge(mapping, 1, Integer::sum);
        }
        return null;
    }

    private int devicesOn(String mapping, String node) {
        PciMapping m = cluster.pciMappings.get(mapping);
        return m == null ? 0 : m.devicesOn(node).size();
    }

    private static java.util.List<Map<String, String>> hostpci(Vm vm) {
        java.util.List<Map<String, String>> out = new java.util.ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Object raw = vm.config.get("hostpci" + i);
            if (raw != null) {
                out.add(QemuFormats.HOSTPCI.parse(raw.toString()));
            }
        }
        return out;
    }

    private Object stop(Call c) {
        return powerDown(c, TaskKind.STOP);
    }

    private Object shutdown(Call c) {
        return powerDown(c, TaskKind.SHUTDOWN);
    }

    private Object powerDown(Call c, TaskKind kind) {
        String node = c.node();
        int vmid = c.vmid();
        String id = Integer.toString(vmid);
        String problem = powerPrecheck(node, vmid);
        if (problem != null) {
            return cluster.failedTask(kind, node, id, problem).upid.toString();
        }
        Vm vm = cluster.vms.get(vmid);
        return cluster.startTask(kind, node, id, () -> {
                    if (cluster.vms.get(vmid) == vm && vm.running) {
                        if (kind == TaskKind.SHUTDOWN) {
                            VmLifecycle.shutdown(cluster, vm);
                        } else {
                            VmLifecycle.powerOff(cluster, vm);
                        }
                    }
                    return null;
                })
                .upid
                .toString();
    }

    /**
     * An ISO image a drive names that its storage does not hold (deleted after it was attached):
     * qemu-server activates every volume before QEMU starts, and a directory storage's {@code
     * activate_volume} dies on a missing file. Only ISO images are checked.
     */
    private String missingIso(Vm vm) {
        for (Drives.Drive d : Drives.of(vm.config)) {
            if (d.hasVolume() && d.file().contains(":iso/") && cluster.storages.volume(d.file(), vm.node) == null) {
                return d.file();
            }
        }
        return null;
    }

    /** A NIC's bridge the node does not have (neither its own nor a VNet's): QEMU cannot plug the tap device in. */
    /**
     * qemu-server's check of a virtio NIC's {@code mtu} against its bridge's ({@code 1}: the
     * bridge's); null when every NIC fits.
     */
    private String mtuProblem(Vm vm, String node) {
        for (int i = 0; i < 32; i++) {
            Object raw = vm.config.get("net" + i);
            if (raw == null) {
                continue;
            }
            Map<String, String> nic = QemuFormats.NET.parse(raw.toString());
            String mtu = nic.get("mtu");
            String bridge = nic.get("bridge");
            if (mtu == null || bridge == null || !raw.toString().startsWith("virtio") || mtu.equals("1")) {
                continue;
            }
            int bridgeMtu = cluster.nodes.get(node).spec.mtuOf(bridge);
            if (Integer.parseInt(mtu) > bridgeMtu) {
                return "netdev net" + i + ": MTU '" + mtu + "' is bigger than the bridge MTU '" + bridgeMtu + "'"
                        + " - adjust the MTU for the network device in the VM configuration, while ensuring that"
                        + " the bridge is configured as desired.";
            }
        }
        return null;
    }

    private String missingBridge(Vm vm) {
        for (Map.Entry<String, Object> e : vm.config.entrySet()) {
            if (e.getKey().matches("net\\d+")) {
                String bridge = QemuFormats.NET.parse(e.getValue().toString()).get("bridge");
                if (bridge != null
                        && !cluster.nodes.get(vm.node).spec.bridges().contains(bridge)
                        && cluster.vnets.get(bridge) == null) {
                    return bridge;
                }
            }
        }
        return null;
    }

    private Object destroy(Call c) {
        String node = c.node();
        int vmid = c.vmid();
        Vm vm = cluster.vmOn(node, vmid);
        if (vm.running) {
            throw Errors.handler("VM " + vmid + " is running - destroy failed");
        }
        if (Integer.valueOf(1).equals(vm.config.get("protection"))) {
            throw Errors.handler("can't remove VM " + vmid + " - protection mode enabled");
        }
        String id = Integer.toString(vmid);
        if (vm.lock() != null) {
            return cluster.failedTask(TaskKind.DESTROY, node, id, Errors.locked(vm.lock()))
                    .upid
                    .toString();
        }
        boolean purge = c.params().bool("purge", false);
        return cluster.startTask(TaskKind.DESTROY, node, id, () -> {
                    if (cluster.vms.get(vmid) != vm) {
                        return Errors.configMissing(node, vmid);
                    }
                    String inUse = VmLifecycle.baseInUse(cluster, vm);
                    if (inUse != null) {
                        return "base volume '" + inUse + "' is still in use by linked cloned";
                    }
                    cluster.vms.remove(vmid);
                    VmLifecycle.freeVolumesWarning(cluster, vm);
                    if (purge) {
                        for (Pool pool : cluster.pools.values()) {
                            pool.members.remove(vmid);
                        }
                    }
                    return null;
                })
                .upid
                .toString();
    }
}
