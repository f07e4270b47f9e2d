package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BiPredicate;
import java.util.function.LongFunction;

/**
 * Orders machines by the revision of their last change, so a delta since a cursor costs time in
 * proportion to the delta. A change gets the next revision and is queued to the store in the same
 * critical section, so writes reach the store in revision order; it becomes visible to readers
 * only once durable, so no reader ever holds a cursor past what a restart would bring back.
 */
final class RevisionIndex {
    private final ConcurrentSkipListMap<Long, MachineEntry> byRevision = new ConcurrentSkipListMap<>();
    private final StateStore store;
    private final Object stampLock = new Object();
    /**
     * Held to read while a List walks the index, and to write while a change moves an entry to its
     * new revision: otherwise a walk could pass the new place before the move and the old one after
     * it, and leave out a machine that existed all along.
     */
    private final ReadWriteLock moves = new ReentrantReadWriteLock();

    private long next;
    /** Every revision up to this one is durable and in the index; readers never look beyond it. */
    private volatile long published;

    RevisionIndex(StateStore store) {
        this.store = store;
    }

    /**
     * Gives {@code next} a fresh revision and queues its write; the snapshot is published to
     * readers when the write is durable.
     */
    CompletableFuture<Void> stamp(MachineEntry entry, Machine next, LongFunction<StoreWrite> writeFor) {
        synchronized (stampLock) {
            long revision = ++this.next;
            StoreWrite write = writeFor.apply(revision);
            return store.write(new StoreWrite(
                    write.machine(),
                    write.lastOperation(),
                    write.failure(),
                    write.operation(),
                    write.marks(),
                    write.deletedMachineId(),
                    revision,
                    write.lastOperationNumber(),
                    () -> publish(entry, next, revision)));
        }
    }

    /**
     * {@link #stamp} of a new machine that takes the place of {@code replaced}, which its write
     * removes ({@link StoreWrite#deletedMachineId()}): readers see the new machine and stop seeing the
     * old one at the same instant, so a List holds exactly one of them; {@code alsoAtThatInstant} runs
     * in that instant too.
     */
    CompletableFuture<Void> stampReplacing(
            MachineEntry replaced,
            MachineEntry entry,
            Machine next,
            LongFunction<StoreWrite> writeFor,
            Runnable alsoAtThatInstant) {
        synchronized (stampLock) {
            long revision = ++this.next;
            StoreWrite write = writeFor.apply(revision);
            return store.write(new StoreWrite(
                    write.machine(),
                    write.lastOperation(),
                    write.failure(),
                    write.operation(),
                    write.marks(),
                    write.deletedMachineId(),
                    revision,
                    write.lastOperationNumber(),
                    () -> {
                        moves.writeLock().lock();
                        try {
                            byRevision.remove(replaced.revision(), replaced);
                            move(entry, next, revision);
                            alsoAtThatInstant.run();
                        } finally {
                            moves.writeLock().unlock();
                        }
                    }));
        }
    }

    /** Runs on the store's writer (or inline for a memory store), in revision order. */
    private void publish(MachineEntry entry, Machine next, long revision) {
        move(entry, next, revision);
    }

    /**
     * Puts {@code entry} at {@code revision} with its new snapshot and lets readers see that far, where
     * no walk sees it half moved.
     */
    private void move(MachineEntry entry, Machine machine, long revision) {
        moves.writeLock().lock();
        try {
            long previous = entry.revision();
            if (previous != 0) {
                byRevision.remove(previous, entry);
            }
            entry.publish(machine, revision);
            byRevision.put(revision, entry);
            if (revision > published) {
                published = revision;
            }
        } finally {
            moves.writeLock().unlock();
        }
    }

    /** Puts a machine loaded from the store back at its stored revision. */
    void restore(MachineEntry entry, Machine machine, long revision) {
        synchronized (stampLock) {
            move(entry, machine, revision);
            if (revision > next) {
                next = revision;
            }
        }
    }

    /**
     * Puts a machine a standby followed at the revision the leader gave it, replacing where the
     * entry stood before; readers see up to the highest revision followed.
     */
    void follow(MachineEntry entry, Machine machine, long revision) {
        synchronized (stampLock) {
            move(entry, machine, revision);
            if (revision > next) {
                next = revision;
            }
        }
    }

    /** Continues numbering after {@code revision} (the stored counter may be ahead of every machine). */
    void resumeAfter(long revision) {
        synchronized (stampLock) {
            if (revision > next) {
                next = revision;
                published = revision;
            }
        }
    }

    void remove(MachineEntry entry) {
        moves.writeLock().lock();
        try {
            byRevision.remove(entry.revision(), entry);
        } finally {
            moves.writeLock().unlock();
        }
    }

    long current() {
        return published;
    }

    /** Revisions after {@code after} up to and including {@code through}. */
    record Range(long after, long through) {}

    /**
     * Hands {@code visitor} the machines of each range that {@code ranges} gives for what is
     * published now, range by range and oldest change first within one, with their revisions, until
     * it returns false; no change moves an entry meanwhile. Returns the revision it read up to.
     */
    long visit(LongFunction<List<Range>> ranges, BiPredicate<Long, Machine> visitor) {
        moves.readLock().lock();
        try {
            long upTo = published;
            for (Range range : ranges.apply(upTo)) {
                long through = Math.min(range.through(), upTo);
                if (range.after() >= through) {
                    continue;
                }
                for (Map.Entry<Long, MachineEntry> e :
                        byRevision.subMap(range.after(), false, through, true).entrySet()) {
                    if (!visitor.test(e.getKey(), e.getValue().snapshot())) {
                        return upTo;
                    }
                }
            }
            return upTo;
        } finally {
            moves.readLock().unlock();
        }
    }
}
