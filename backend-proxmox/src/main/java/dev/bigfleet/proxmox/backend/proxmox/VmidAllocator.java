package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Picks the VMID for a new clone: the lowest free one in {@code --vmid-range}, else what
 * {@code /cluster/nextid} suggests. Proxmox reserves nothing, so the id is only a candidate; this
 * process at least never hands the same one to two of its own clones at once, and the caller
 * retries with another one when the clone reports a conflict.
 */
final class VmidAllocator {
    private final PveClient api;
    private final Optional<VmidRange> range;
    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();

    VmidAllocator(PveClient api, Optional<VmidRange> range) {
        this.api = api;
        this.range = range;
    }

    /**
     * @param listed the current listing (ids in it are taken)
     * @param tried ids that already failed for this clone
     * @return an id now marked in flight; {@link #release} it when the clone attempt ends
     */
    long claim(List<ClusterResource> listed, Set<Long> tried) throws BackendException {
        Set<Long> taken = listed.stream()
                .filter(r -> r.vmid() > 0)
                .map(ClusterResource::vmid)
                .collect(Collectors.toSet());
        if (range.isPresent()) {
            for (long id = range.get().from(); id <= range.get().to(); id++) {
                if (!taken.contains(id) && !tried.contains(id) && inFlight.add(id)) {
                    return id;
                }
            }
            throw new BackendException("no free VMID left in --vmid-range " + range.get());
        }
        long id;
        try {
            id = api.nextId();
        } catch (PveApiException e) {
            throw new BackendException("allocate a VMID: " + e.getMessage(), e);
        }
        // the answer is fresher than the listing, which may predate a wait for a clone slot: an id a
        // Delete freed since is free, whatever the listing says; only the ids after it are skipped
        // when the listing (or this process) has them taken
        long first = id;
        while (tried.contains(id) || (id != first && taken.contains(id)) || !inFlight.add(id)) {
            id++;
        }
        return id;
    }

    void release(long id) {
        inFlight.remove(id);
    }
}
