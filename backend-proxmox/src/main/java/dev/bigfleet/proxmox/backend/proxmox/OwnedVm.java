package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;

/** A VM found by VMID on whichever node holds it now, whose description names the machine. */
record OwnedVm(String machineId, String node, long vmid, ClusterResource listing) {
    String ref() {
        return node + "/" + vmid;
    }
}
