package dev.bigfleet.proxmox.pvesim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Power transitions and disk cleanup shared by the API and the out-of-band hooks. */
final class VmLifecycle {
    private VmLifecycle() {}

    /**
     * qemu-server's check before destroying a template: the volume ID of a base disk a linked clone
     * still uses, or null.
     */
    static String baseInUse(Cluster cluster, Vm vm) {
        if (!vm.template()) {
            return null;
        }
        for (Drives.Drive d : Drives.of(vm.config)) {
            if (d.cdrom()) {
                continue;
            }
            Volume v = cluster.volumeOf(vm, d);
            if (v != null && cluster.storages.baseInUse(v, vm.node)) {
                return v.volid();
            }
        }
        return null;
    }

    /** Frees every volume the VM owns on the storages its node sees, as a purge destroy does, and its guest's disk. */
    static void freeVolumes(Cluster cluster, Vm vm) {
        cluster.guests.destroy(vm);
        for (StoragePool pool : cluster.storages.pools()) {
            if (pool.node == null || pool.node.equals(vm.node)) {
                pool.volumes.values().removeIf(v -> v.owner == vm.vmid);
            }
        }
    }

    /**
     * As {@link #freeVolumes}, inside a destroy task: a disk whose removal cannot take its storage's
     * lock stays, and the task warns as qemu-server's destroy does, going on with the next disk.
     */
    static void freeVolumesWarning(Cluster cluster, Vm vm) {
        cluster.guests.destroy(vm);
        for (StoragePool pool : cluster.storages.pools()) {
            if (pool.node == null || pool.node.equals(vm.node)) {
                pool.volumes.values().removeIf(v -> {
                    if (v.owner != vm.vmid) {
                        return false;
                    }
                    String timeout = cluster.faults.takeDiskRemovalLockTimeout(pool.spec);
                    if (timeout == null) {
                        return true;
                    }
                    cluster.warn("Could not remove disk '" + v.volid() + "', check manually: " + timeout);
                    return false;
                });
            }
        }
    }

    /**
     * QEMU is up with the ISO images of its CD-ROM drives; the guest boots and its agent listens
     * after the scaled boot delay.
     */
    static void powerOn(Cluster cluster, Vm vm) {
        vm.running = true;
        vm.startedAtNanos = Cluster.now();
        vm.startedAtEpoch = Cluster.epoch();
        List<Path> cdroms = new ArrayList<>();
        for (String key : Drives.NAMES) {
            Object value = vm.config.get(key);
            if (value == null) {
                continue;
            }
            Drives.Drive d = Drives.parse(key, value);
            Volume v = d.cdrom() ? cluster.volumeOf(vm, d) : null;
            if (v != null && v.file != null) {
                cdroms.add(v.file);
            }
        }
        cluster.guests.powerOn(vm, cluster.delays.agentBoot(), cdroms);
    }

    /** QEMU quits: the guest is gone; pending changes become active. */
    static void powerOff(Cluster cluster, Vm vm) {
        vm.powerOff();
        cluster.guests.powerOff(vm.vmid);
    }

    /** The guest shuts down (a real VM's through its agent), then QEMU quits. */
    static void shutdown(Cluster cluster, Vm vm) {
        vm.powerOff();
        cluster.guests.shutdown(vm.vmid);
    }
}
