package dev.bigfleet.proxmox.pvesim;

/** Power transitions shared by the API and the out-of-band hooks. */
final class VmLifecycle {
    private VmLifecycle() {}

    /** QEMU is up; the guest OS boots and its agent answers after the scaled boot delay. */
    static void powerOn(Cluster cluster, Vm vm) {
        vm.running = true;
        vm.startedAtNanos = Cluster.now();
        vm.startedAtEpoch = Cluster.epoch();
        vm.agentReadyAtNanos = vm.startedAtNanos + cluster.delays.agentBoot().toNanos();
        vm.liveExecs.clear();
        vm.nextGuestPid = 1200;
    }
}
