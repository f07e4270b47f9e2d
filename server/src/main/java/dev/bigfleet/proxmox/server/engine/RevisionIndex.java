package dev.bigfleet.proxmox.server.engine;

import dev.bigfleet.proxmox.api.Machine;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Orders machines by the revision of their last change, so a delta since a cursor costs time in
 * proportion to the delta. Every change gets the next revision; the critical section is a few map
 * operations, never backend or store work.
 */
final class RevisionIndex {
    private final ConcurrentSkipListMap<Long, MachineEntry> byRevision = new ConcurrentSkipListMap<>();
    private final Object stampLock = new Object();
    private long next;
    /** Every revision up to this one is fully in the index; readers never look beyond it. */
    private volatile long published;

    RevisionIndex(long startAfter) {
        this.next = startAfter;
        this.published = startAfter;
    }

    /** Stamps a new snapshot on {@code entry} with a fresh revision and returns that revision. */
    long stamp(MachineEntry entry, Machine next) {
        synchronized (stampLock) {
            long revision = ++this.next;
            long previous = entry.revision();
            if (previous != 0) {
                byRevision.remove(previous, entry);
            }
            entry.publish(next, revision);
            byRevision.put(revision, entry);
            published = revision;
            return revision;
        }
    }

    long current() {
        return published;
    }

    /** Entries changed after {@code since} up to {@code upTo}, oldest change first. */
    NavigableMap<Long, MachineEntry> changedBetween(long since, long upTo) {
        if (since >= upTo) {
            return new ConcurrentSkipListMap<>();
        }
        return byRevision.subMap(since, false, upTo, true);
    }

    int size() {
        return byRevision.size();
    }

    Iterable<Map.Entry<Long, MachineEntry>> all() {
        return byRevision.entrySet();
    }
}
