package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.TagList;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BindingRecorder;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a machine's binding in its VM's description ({@link BindingLine}) and the {@link
 * Markers#BOUND_TAG} in its tags, with one synchronous config write guarded by the config's digest,
 * after proving the VM is the machine's. Metadata that would make the description longer than
 * Proxmox allows (8 KiB) is kept as its digest.
 */
final class VmBinder implements BindingRecorder {
    /** qemu-server's {@code description}: at most 8 KiB. */
    static final int MAX_DESCRIPTION = 8 * 1024;

    private static final Logger log = LoggerFactory.getLogger(VmBinder.class);

    private final PveClient api;
    private final OwnershipGuard guard;
    private final ManagedInventory inventory;
    private final Markers markers;

    VmBinder(PveClient api, OwnershipGuard guard, ManagedInventory inventory, Markers markers) {
        this.api = api;
        this.guard = guard;
        this.inventory = inventory;
        this.markers = markers;
    }

    @Override
    public void recordBinding(VmTarget target, VmBinding binding, OperationContext context) throws BackendException {
        String what = "record the binding of VM " + target.hostRef() + " to cluster " + binding.clusterId();
        write(what, target, Optional.of(binding));
    }

    @Override
    public void clearBinding(VmTarget target, OperationContext context) throws BackendException {
        write("clear the binding of VM " + target.hostRef(), target, Optional.empty());
    }

    /** The VM's config where the target says it is, else wherever the cluster has that VMID now. */
    private Optional<Located> locate(String what, VmTarget target) throws BackendException {
        try {
            return Optional.of(new Located(target.node(), target.vmid(), api.config(target.node(), target.vmid())));
        } catch (PveApiException e) {
            if (!e.vmMissing()) {
                throw ApiFailures.wrap(what + ": read config: " + e.getMessage(), e);
            }
        }
        Optional<OwnedVm> moved = guard.find(what, target);
        if (moved.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Located(
                    moved.get().node(),
                    moved.get().vmid(),
                    api.config(moved.get().node(), moved.get().vmid())));
        } catch (PveApiException e) {
            throw ApiFailures.wrap(what + ": read config: " + e.getMessage(), e);
        }
    }

    private record Located(String node, long vmid, VmConfig config) {}

    private void write(String what, VmTarget target, Optional<VmBinding> wanted) throws BackendException {
        Optional<Located> found = locate(what, target);
        if (found.isEmpty()) {
            if (wanted.isEmpty()) {
                return; // nothing left to clear
            }
            throw new BackendException(what + ": VM " + target.hostRef() + " of machine " + target.machineId()
                    + " no longer exists (destroyed outside the provider?)");
        }
        Located vm = found.get();
        VmConfig config = vm.config();
        Optional<VmDescription> described = VmDescription.parse(config.description());
        if (described.isEmpty() || !described.get().belongsTo(markers.providerLabel(), target.machineId())) {
            throw new BackendException(what + ": VM " + vm.node() + "/" + vm.vmid() + " is not machine "
                    + target.machineId() + "'s; the VMID was probably reused, so it was left untouched");
        }
        try {
            VmDescription current = described.get();
            Optional<VmBinding> next = wanted.map(w -> current.binding()
                    .filter(held -> sameBinding(held, w))
                    .orElse(w)); // a retry keeps the first bound_at
            TagList tags = next.isPresent()
                    ? config.tags().with(Markers.BOUND_TAG)
                    : config.tags().without(Markers.BOUND_TAG);
            VmDescription updated = current.withBinding(next);
            if (updated.equals(current) && tags.equals(config.tags())) {
                return;
            }
            if (next.isPresent() && BindingLine.utf8Length(updated.render()) > MAX_DESCRIPTION) {
                updated = current.withBinding(Optional.of(BindingLine.elided(next.get())));
                log.info("{}: its shard metadata is kept as a digest, whole it would not fit the description", what);
            }
            if (BindingLine.utf8Length(updated.render()) > MAX_DESCRIPTION) {
                throw new BackendException(what + ": the binding does not fit the VM's description (8 KiB)");
            }
            api.updateMarkers(vm.node(), vm.vmid(), tags, updated.render(), config.digest());
            inventory.remember(vm.vmid(), tags, updated);
        } catch (PveApiException e) {
            if (e.mentions("checksum mismatch")) {
                // the config changed between the read and the write: read it again on the retry
                throw BackendException.transientFailure(what + ": " + e.getMessage(), e);
            }
            throw ApiFailures.wrap(what + ": " + e.getMessage(), e);
        }
    }

    private static boolean sameBinding(VmBinding held, VmBinding wanted) {
        return held.clusterId().equals(wanted.clusterId())
                && (held.shardMetadata().equals(wanted.shardMetadata())
                        || held.metadataDigest().equals(Optional.of(BindingLine.digest(wanted.shardMetadata()))));
    }
}
