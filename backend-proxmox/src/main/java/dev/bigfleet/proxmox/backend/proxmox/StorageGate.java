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
 * Admits a clone only when the storages it writes to have the room: the clone's copies ({@link
 * Placement#writes()}) on the node that copies, the type's new drives ({@link
 * VmShape#newDriveBytes}) on the VM's node; each against the storage's free space as last read ({@link
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
        StorageStatusCache.Read copyRead = read(p.copyNode());
        Map<String, Long> drives = p.shape().newDriveBytes(p.template());
        StorageStatusCache.Read vmRead = drives.isEmpty() || p.node().equals(p.copyNode()) ? copyRead : read(p.node());
        synchronized (this) {
            claims.remove(machineId);
            Instant oldest = copyRead.at().isBefore(vmRead.at()) ? copyRead.at() : vmRead.at();
            claims.values().forEach(list -> list.removeIf(c -> !c.counts(oldest)));
            claims.values().removeIf(List::isEmpty);
            List<Claim> mine = new ArrayList<>();
            Map<String, Long> pending = new HashMap<>();
            for (Map.Entry<String, Long> w : p.writes().entrySet()) {
                String what = "the " + p.mode() + " clone of template "
                        + p.template().vmid() + " for " + p.type().name();
                claim(p.copyNode(), copyRead, w.getKey(), w.getValue(), what, mine, pending);
            }
            for (Map.Entry<String, Long> w : drives.entrySet()) {
                String what = "the new drives of " + p.type().name() + " (its disks, efi_storage, tpm)";
                claim(p.node(), vmRead, w.getKey(), w.getValue(), what, mine, pending);
            }
            claims.put(machineId, mine);
        }
    }

    private StorageStatusCache.Read read(String node) throws BackendException {
        try {
            return statuses.get(node);
        } catch (PveApiException e) {
            throw new BackendException("read the storages of node " + node + ": " + e.getMessage(), e);
        }
    }

    /** Adds the claim of {@code bytes} on {@code storage}, or refuses when it does not fit beside the others. */
    private void claim(
            String node,
            StorageStatusCache.Read read,
            String storage,
            long bytes,
            String what,
            List<Claim> mine,
            Map<String, Long> pending)
            throws BackendException {
        StorageStatus s = read.find(storage)
                .filter(StorageStatus::usable)
                .orElseThrow(() -> new BackendException("storage " + storage + " is not active on node " + node
                        + " (or not visible to the API token)"));
        String where = s.shared() ? storage : storage + "@" + node;
        long free = s.avail() - claimed(where, read.at()) - pending.getOrDefault(where, 0L);
        if (free < bytes) {
            throw new BackendException("storage " + storage + " on node " + node + " has " + gib(Math.max(0, free))
                    + " free, " + what + " needs " + gib(bytes));
        }
        pending.merge(where, bytes, Long::sum);
        mine.add(new Claim(where, bytes, null));
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
