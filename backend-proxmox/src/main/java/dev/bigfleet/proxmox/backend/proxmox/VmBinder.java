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

    VmBinder(PveClient api, OwnershipGuard guard, ManagedInventory inventory) {
        this.api = api;
        this.guard = guard;
        this.inventory = inventory;
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

    /**
     * The machine's VM and its config, where the target says it is, else wherever the cluster has
     * that VMID now; or why it is gone (no VM has the VMID, or another VM does, left untouched).
     */
    private Lookup locate(String what, VmTarget target) throws BackendException {
        try {
            VmConfig config = api.config(target.node(), target.vmid());
            Optional<String> other = guard.otherHolder(what, target, target.hostRef(), config);
            return other.isPresent()
                    ? Lookup.gone(other.get())
                    : Lookup.at(new Located(target.node(), target.vmid(), config));
        } catch (PveApiException e) {
            if (!e.vmMissing()) {
                throw ApiFailures.wrap(what + ": read config: " + e.getMessage(), e);
            }
        }
        VmLookup moved = guard.lookup(what, target);
        if (moved.owned().isEmpty()) {
            return Lookup.gone(moved.absence());
        }
        OwnedVm vm = moved.owned().get();
        try {
            return Lookup.at(new Located(vm.node(), vm.vmid(), api.config(vm.node(), vm.vmid())));
        } catch (PveApiException e) {
            throw ApiFailures.wrap(what + ": read config: " + e.getMessage(), e);
        }
    }

    private record Located(String node, long vmid, VmConfig config) {}

    /** The VM found, or why there is none. */
    private record Lookup(Optional<Located> vm, String absence) {
        static Lookup at(Located vm) {
            return new Lookup(Optional.of(vm), "");
        }

        static Lookup gone(String absence) {
            return new Lookup(Optional.empty(), absence);
        }
    }

    private void write(String what, VmTarget target, Optional<VmBinding> wanted) throws BackendException {
        Lookup found = locate(what, target);
        if (found.vm().isEmpty()) {
            if (wanted.isEmpty()) {
                // nothing left to clear: the binding went with the VM, whatever holds its VMID now
                log.info("{}: nothing to clear, the VM is gone ({})", what, found.absence());
                return;
            }
            throw new BackendException(what + ": VM " + target.hostRef() + " of machine " + target.machineId()
                    + " no longer exists (" + found.absence() + ")");
        }
        Located vm = found.vm().get();
        VmConfig config = vm.config();
        Optional<VmDescription> described = VmDescription.parse(config.description());
        if (described.isEmpty()) {
            throw new BackendException(what + ": VM " + vm.node() + "/" + vm.vmid() + " of machine "
                    + target.machineId() + " has no BigFleet description to keep the binding in");
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
