package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.StorageStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each node's storages ({@code GET /nodes/{node}/storage}), read at most once per reconcile
 * interval: a reconcile pass marks every read stale, so the next Create on a node reads afresh,
 * and no read is used longer than {@link #MAX_AGE} (when reconciling is off).
 */
final class StorageStatusCache {
    static final Duration MAX_AGE = Duration.ofMinutes(2);

    /** One node's answer and when it was read. */
    record Read(List<StorageStatus> storages, Instant at) {
        Optional<StorageStatus> find(String storage) {
            return storages.stream().filter(s -> s.storage().equals(storage)).findFirst();
        }
    }

    private final PveClient api;
    private final Map<String, Read> byNode = new ConcurrentHashMap<>();
    private volatile Instant staleBefore = Instant.MIN;

    StorageStatusCache(PveClient api) {
        this.api = api;
    }

    /** The node's storages: the cached read when it is fresh, else one call. */
    Read get(String node) {
        Read r = byNode.get(node);
        if (r != null && !r.at().isBefore(staleBefore) && r.at().plus(MAX_AGE).isAfter(Instant.now())) {
            return r;
        }
        return refresh(node);
    }

    /** Reads the node now (the admin's node list), which also serves the next Creates there. */
    Read refresh(String node) {
        Read fresh = new Read(List.copyOf(api.nodeStorage(node)), Instant.now());
        byNode.put(node, fresh);
        return fresh;
    }

    /** A reconcile pass ran: the next use of any node reads it again. */
    void expire() {
        staleBefore = Instant.now();
    }
}
