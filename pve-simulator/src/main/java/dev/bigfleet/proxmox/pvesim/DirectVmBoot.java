package dev.bigfleet.proxmox.pvesim;

import java.nio.file.Path;

/**
 * The guest image booted as a QEMU virtual machine directly, as the simulator boots a started VM
 * with {@code --guests vm} (a linked qcow2 overlay of the image's disk, the same QEMU command line),
 * with no API in between: what a boot costs by itself, for {@code bench/vm-bench.sh} to set the
 * provider's Create against.
 */
public final class DirectVmBoot implements AutoCloseable {
    private final QemuGuest guest;
    private final GuestConsole console;

    private DirectVmBoot(QemuGuest guest) {
        this.guest = guest;
        this.console = new GuestConsole(0, guest::socket, guest::root);
    }

    /** Starts QEMU on a new overlay in {@code dir}; returns once the process runs. */
    public static DirectVmBoot start(Path dir, String hostname) {
        Path image = GuestImage.vmImage();
        GuestDisk disk = GuestDisk.qcowLinked(image.resolve("guest.qcow2"), dir.resolve("disk"));
        return new DirectVmBoot(QemuGuest.boot(image, disk.qcow2(), dir.resolve("run"), hostname));
    }

    /** Whether the guest's agent answers a ping, waiting for it up to qemu-server's 3 s. */
    public boolean agentAnswers() {
        return console.agentAnswers();
    }

    /** Stops the VM (QMP {@code quit}, then a kill). */
    @Override
    public void close() {
        guest.halt();
    }
}
