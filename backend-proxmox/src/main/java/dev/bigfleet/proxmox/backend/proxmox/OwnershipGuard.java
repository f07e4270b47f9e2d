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
 * at someone else's VM, which must receive neither a join secret nor a destroy. Such a VM is never
 * touched, and it proves the machine's own VM gone (a VMID is held by one VM at a time): a Delete
 * of that machine has nothing left to do, a Configure or Drain nothing left to act on.
 */
final class OwnershipGuard {
    /** Why a machine's VM is gone when no VM holds its VMID. */
    static final String DESTROYED = "destroyed outside the provider?";

    private final PveClient api;
    private final Markers markers;

    OwnershipGuard(PveClient api, Markers markers) {
        this.api = api;
        this.markers = markers;
    }

    /** The VM, or empty when it is gone: no VM has that VMID any more, or another VM has it. */
    Optional<OwnedVm> find(String what, VmTarget target) throws BackendException {
        return lookup(what, target).owned();
    }

    /** Like {@link #find}, but a VM that is gone is a failure naming the host and why. */
    OwnedVm require(String what, VmTarget target) throws BackendException {
        VmLookup found = lookup(what, target);
        if (found.owned().isPresent()) {
            return found.owned().get();
        }
        throw new BackendException(what + ": VM " + target.hostRef() + " of machine " + target.machineId()
                + " no longer exists (" + found.absence() + ")");
    }

    /** The VM, proven the machine's, or why there is none any more. */
    VmLookup lookup(String what, VmTarget target) throws BackendException {
        List<ClusterResource> listed;
        try {
            listed = api.vmResources();
        } catch (PveApiException e) {
            throw ApiFailures.wrap(what + ": list VMs: " + e.getMessage(), e);
        }
        Optional<ClusterResource> listing = listed.stream()
                .filter(r -> r.isQemu() && r.vmid() == target.vmid())
                .findFirst();
        if (listing.isEmpty()) {
            return VmLookup.gone(DESTROYED);
        }
        ClusterResource r = listing.get();
        String ref = r.node() + "/" + r.vmid();
        VmConfig config;
        try {
            config = api.config(r.node(), r.vmid());
        } catch (PveApiException e) {
            if (e.vmMissing()) {
                return VmLookup.gone(DESTROYED);
            }
            throw ApiFailures.wrap(what + ": read config of VM " + ref + ": " + e.getMessage(), e);
        }
        Optional<String> other = otherHolder(what, target, ref, config);
        return other.isPresent()
                ? VmLookup.gone(other.get())
                : VmLookup.found(new OwnedVm(target.machineId(), r.node(), r.vmid(), r));
    }

    /**
     * Reads from the config of the VM holding the machine's VMID ({@code ref}) whether it is the
     * machine's VM: its description names this provider and the machine (or, for a VM Describe
     * reported without a machine, it carries this provider's tag and no description).
     *
     * @return empty when it is the machine's VM; otherwise, for an operator's message, which VM
     *     holds the VMID now (the machine's VM is gone)
     * @throws BackendException when the VM carries the machine's tag but no description naming it
     *     (edited by hand?): whether it is the machine's VM cannot be proven, so it is left alone
     */
    Optional<String> otherHolder(String what, VmTarget target, String ref, VmConfig config) throws BackendException {
        Optional<VmDescription> d = VmDescription.parse(config.description());
        if (target.machineId().isEmpty() && d.isEmpty() && config.tags().contains(markers.providerTag())) {
            // a VM describe reported with no machine: tagged for this provider, description lost
            return Optional.empty();
        }
        if (d.isPresent() && d.get().belongsTo(markers.providerLabel(), target.machineId())) {
            return Optional.empty();
        }
        String machineTag = markers.machineTag(target.machineId());
        if (d.isEmpty() && !target.machineId().isEmpty() && config.tags().contains(machineTag)) {
            throw new BackendException(what + ": VM " + ref + " carries machine " + target.machineId() + "'s tag "
                    + machineTag + " but no BigFleet description naming it (was the description edited?), so"
                    + " whether it is that machine's VM cannot be proven; it was left untouched");
        }
        String carries = d.map(x -> "provider \"" + x.provider() + "\", machine \"" + x.machineId() + "\"")
                .orElse(config.lock()
                        .map(l -> "no BigFleet description, locked (" + l + ")")
                        .orElse("no BigFleet description"));
        return Optional.of(
                "its VMID now belongs to another VM, " + ref + " (" + carries + "), which was left untouched");
    }
}
