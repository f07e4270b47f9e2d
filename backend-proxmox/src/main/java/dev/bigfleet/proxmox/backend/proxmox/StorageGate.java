package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.StorageStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Admits a clone only when the storage it writes to has the room, checked on the node that copies
 * against {@link Placement#writes()}: the storage's free space as last read ({@link
 * StorageStatusCache}), less what this process's clones have claimed since that read (their
 * writes may not show in it yet). A clone that would not fit fails before anything is cloned.
 */
final class StorageGate {
    /** Bytes a clone writes to a storage ({@code id} shared, {@code id@node} local); finished or in flight. */
    private record Claim(String where, long bytes, Instant finishedAt) {
        boolean counts(Instant readAt) {
            return finishedAt == null || !finishedAt.isBefore(readAt);
        }
    }

    private final StorageStatusCache statuses;
    private final Map<String, List<Claim>> claims = new HashMap<>();

    StorageGate(StorageStatusCache statuses) {
        this.statuses = statuses;
    }

    void admit(String machineId, Placement p) throws BackendException {
        StorageStatusCache.Read read;
        try {
            read = statuses.get(p.copyNode());
        } catch (PveApiException e) {
            throw new BackendException("read the storages of node " + p.copyNode() + ": " + e.getMessage(), e);
        }
        synchronized (this) {
            claims.remove(machineId);
            claims.values().forEach(list -> list.removeIf(c -> !c.counts(read.at())));
            claims.values().removeIf(List::isEmpty);
            List<Claim> mine = new ArrayList<>();
            for (Map.Entry<String, Long> w : p.writes().entrySet()) {
                String storage = w.getKey();
                StorageStatus s = read.find(storage)
                        .filter(StorageStatus::usable)
                        .orElseThrow(() -> new BackendException("storage " + storage + " is not active on node "
                                + p.copyNode() + " (or not visible to the API token)"));
                String where = s.shared() ? storage : storage + "@" + p.copyNode();
                long free = s.avail() - claimed(where, read.at());
                if (free < w.getValue()) {
                    throw new BackendException("storage " + storage + " on node " + p.copyNode() + " has "
                            + gib(Math.max(0, free)) + " free, the " + p.mode() + " clone of template "
                            + p.template().vmid() + " for " + p.type().name() + " needs " + gib(w.getValue()));
                }
                mine.add(new Claim(where, w.getValue(), null));
            }
            claims.put(machineId, mine);
        }
    }

    /** The clone is written: its claim counts until a read taken after now can show it. */
    synchronized void cloned(String machineId) {
        List<Claim> list = claims.get(machineId);
        if (list != null) {
            Instant now = Instant.now();
            list.replaceAll(c -> new Claim(c.where(), c.bytes(), now));
        }
    }

    /** The clone failed or its VM is gone: nothing of it counts any more. */
    synchronized void release(String machineId) {
        claims.remove(machineId);
    }

    /** Claims still in flight, or started after the read (so the read may not show their writes). */
    private long claimed(String where, Instant readAt) {
        long sum = 0;
        for (List<Claim> list : claims.values()) {
            for (Claim c : list) {
                if (c.where().equals(where) && c.counts(readAt)) {
                    sum += c.bytes();
                }
            }
        }
        return sum;
    }

    static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
