package dev.bigfleet.proxmox.backend.proxmox;

import java.util.List;

/**
 * What a destroy did: whether there was a VM to destroy, and the disks Proxmox could not remove
 * while destroying it. qemu-server's destroy goes on past a disk it cannot free (its storage's lock
 * not had in time, a storage gone), warns {@code Could not remove disk '<volid>', check manually:
 * <why>} in the task log and ends {@code WARNINGS: n}: the VM is gone, its disk stays and keeps its
 * space until someone removes it.
 *
 * @param destroyed whether a VM was destroyed (false: there was none)
 * @param disksLeft the task log's lines naming each disk that stayed, as Proxmox wrote them
 */
record DestroyedVm(boolean destroyed, List<String> disksLeft) {
    static final DestroyedVm NONE = new DestroyedVm(false, List.of());

    DestroyedVm {
        disksLeft = List.copyOf(disksLeft);
    }
}
