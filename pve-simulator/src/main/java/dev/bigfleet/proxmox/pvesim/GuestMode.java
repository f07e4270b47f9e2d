package dev.bigfleet.proxmox.pvesim;

/** What runs a started VM's guest. */
public enum GuestMode {
    /**
     * Debian's qemu-guest-agent in a bubblewrap sandbox over the VM's disk (an overlay of the guest
     * root file system): starts in milliseconds; the boot delay is simulated.
     */
    SANDBOX,
    /**
     * A real virtual machine: {@code qemu-system-x86_64} under software emulation booting the guest
     * image's qcow2 disk (a linked clone an overlay of its template's, a full clone a copy); it
     * boots in seconds, for real.
     */
    VM
}
