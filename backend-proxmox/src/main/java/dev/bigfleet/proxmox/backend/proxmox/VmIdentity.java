package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Optional;

/**
 * What a VM's description said, remembered per VMID together with the listing facts it was read
 * under ({@code key}): when those change (new tags, a reused VMID) the description is read again.
 */
record VmIdentity(String key, Optional<VmDescription> description) {}
