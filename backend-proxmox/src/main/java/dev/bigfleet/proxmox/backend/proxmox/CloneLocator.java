package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.VmConfig;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Finds a VMID this process asked to clone: where it lives and its config, waiting while the clone
 * still holds its lock. A pool-scoped token sees a clone only once its task has added it to the
 * pool (before that it is missing from the listing and every call on it is refused with 403), so a
 * VMID that is not listed but is taken cluster-wide counts as still cloning.
 */
final class CloneLocator {
    /** How long a clone whose answer was lost may take to show up before another VMID is tried. */
    static final Duration ABSENT_GRACE = Duration.ofSeconds(5);

    private static final Polling UNLOCK_POLLING = new Polling(Duration.ofMillis(250), Duration.ofSeconds(2));

    /** Where a VMID is and its config; {@code config} is empty while the token cannot see it yet. */
    record Located(String node, Optional<VmConfig> config) {
        boolean cloning() {
            return config.isEmpty()
                    || config.get().lock().filter("clone"::equals).isPresent();
        }
    }

    private final PveClient api;
    private final Markers markers;

    CloneLocator(PveClient api, Markers markers) {
        this.api = api;
        this.markers = markers;
    }

    /** Where a VMID lives now and its config; empty when no VM has it. */
    Optional<Located> locate(long vmid) throws BackendException {
        try {
            Optional<ClusterResource> r = api.vmResources().stream()
                    .filter(x -> x.isQemu() && x.vmid() == vmid)
                    .findFirst();
            if (r.isEmpty()) {
                return api.vmidTaken(vmid) ? Optional.of(new Located("", Optional.empty())) : Optional.empty();
            }
            return Optional.of(
                    new Located(r.get().node(), Optional.of(api.config(r.get().node(), vmid))));
        } catch (PveApiException e) {
            if (e.vmMissing()) {
                return Optional.empty();
            }
            if (e.isStatus(403)) {
                // listed a moment ago, refused now: it left the token's pool, or is not in it yet
                return Optional.of(new Located("", Optional.empty()));
            }
            throw new BackendException("look up VM " + vmid + ": " + e.getMessage(), e);
        }
    }

    /**
     * Waits while the VM is locked by its clone (or not visible yet).
     *
     * @return the VM once unlocked and carrying this machine's description; empty if it vanishes
     *     or is someone else's
     */
    Optional<Located> awaitUnlocked(long vmid, String machineId, OperationContext context) throws BackendException {
        Instant[] absentSince = {null};
        // the probe answers Optional.of(the outcome): present = found and unlocked, empty = gone or not ours
        Optional<Optional<Located>> outcome = UNLOCK_POLLING.until(Instant.MAX, context, () -> {
            Optional<Located> now = locate(vmid);
            if (now.isEmpty()) {
                absentSince[0] = absentSince[0] == null ? Instant.now() : absentSince[0];
                boolean gone = Duration.between(absentSince[0], Instant.now()).compareTo(ABSENT_GRACE) >= 0;
                return gone ? Optional.of(Optional.<Located>empty()) : Optional.empty();
            }
            absentSince[0] = null;
            if (now.get().config().isPresent()) {
                Optional<VmDescription> d =
                        VmDescription.parse(now.get().config().get().description());
                if (d.isPresent() && !d.get().belongsTo(markers.providerLabel(), machineId)) {
                    return Optional.of(Optional.<Located>empty());
                }
                if (!now.get().cloning()) {
                    return Optional.of(d.isPresent() ? now : Optional.<Located>empty());
                }
            }
            return Optional.empty();
        });
        return outcome.orElseThrow(() -> new BackendException(
                "VM " + vmid + " of machine " + machineId + " was still being cloned at the transition deadline"));
    }
}
