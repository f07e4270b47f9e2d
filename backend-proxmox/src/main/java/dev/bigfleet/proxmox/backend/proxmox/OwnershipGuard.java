package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.util.List;
import java.util.Optional;

/**
 * Finds a machine's VM by VMID across the cluster (HA may have moved it) and proves it is still
 * that machine's before anything is done to it: VMIDs are recycled, so a stale host ref can point
 * at someone else's VM, which must receive neither a join secret nor a destroy.
 */
final class OwnershipGuard {
    private final PveClient api;
    private final Markers markers;

    OwnershipGuard(PveClient api, Markers markers) {
        this.api = api;
        this.markers = markers;
    }

    /** The VM, or empty when no VM has that VMID any more (destroyed out of band). */
    Optional<OwnedVm> find(String what, VmTarget target) throws BackendException {
        List<ClusterResource> listed;
        try {
            listed = api.vmResources();
        } catch (PveApiException e) {
            throw new BackendException(what + ": list VMs: " + e.getMessage(), e);
        }
        Optional<ClusterResource> listing = listed.stream()
                .filter(r -> r.isQemu() && r.vmid() == target.vmid())
                .findFirst();
        if (listing.isEmpty()) {
            return Optional.empty();
        }
        return verify(what, target, listing.get());
    }

    /** Like {@link #find}, but a missing VM is a failure naming the host. */
    OwnedVm require(String what, VmTarget target) throws BackendException {
        return find(what, target)
                .orElseThrow(() -> new BackendException(what + ": VM " + target.hostRef() + " of machine "
                        + target.machineId() + " no longer exists (destroyed outside the provider?)"));
    }

    /** Reads the description of the listed VM and checks it names this provider and machine. */
    Optional<OwnedVm> verify(String what, VmTarget target, ClusterResource r) throws BackendException {
        String ref = r.node() + "/" + r.vmid();
        VmConfig config;
        try {
            config = api.config(r.node(), r.vmid());
        } catch (PveApiException e) {
            if (e.vmMissing()) {
                return Optional.empty();
            }
            throw new BackendException(what + ": read config of VM " + ref + ": " + e.getMessage(), e);
        }
        Optional<VmDescription> d = VmDescription.parse(config.description());
        if (target.machineId().isEmpty() && d.isEmpty() && config.tags().contains(markers.providerTag())) {
            // a VM describe reported with no machine: tagged for this provider, description lost
            return Optional.of(new OwnedVm(target.machineId(), r.node(), r.vmid(), r));
        }
        if (d.isEmpty() || !d.get().belongsTo(markers.providerLabel(), target.machineId())) {
            String found = d.map(x -> "provider \"" + x.provider() + "\", machine \"" + x.machineId() + "\"")
                    .orElse("no BigFleet description");
            throw new BackendException(what + ": VM " + ref + " is not machine " + target.machineId()
                    + "'s (it carries " + found + "); the VMID was probably reused, so it was left untouched");
        }
        return Optional.of(new OwnedVm(target.machineId(), r.node(), r.vmid(), r));
    }
}
