package dev.bigfleet.proxmox.backend.proxmox;

import java.util.Objects;
import java.util.Optional;

/**
 * What a machine's VMID leads to now: its VM, proven the machine's, or nothing of the machine's any
 * more, and why. VMIDs are unique in a cluster, so another VM holding the VMID proves the machine's
 * VM destroyed as surely as no VM holding it does.
 *
 * @param owned the machine's VM; empty when it is gone
 * @param absence why it is gone, as a parenthesis of an operator's message; empty when it is not
 */
record VmLookup(Optional<OwnedVm> owned, String absence) {
    VmLookup {
        Objects.requireNonNull(owned, "owned");
        Objects.requireNonNull(absence, "absence");
    }

    static VmLookup found(OwnedVm vm) {
        return new VmLookup(Optional.of(vm), "");
    }

    static VmLookup gone(String absence) {
        return new VmLookup(Optional.empty(), absence);
    }
}
