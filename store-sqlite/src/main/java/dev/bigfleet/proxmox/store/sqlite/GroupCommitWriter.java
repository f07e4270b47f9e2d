package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer: takes every write queued since its last commit and commits them as one
 * transaction, so many concurrent changes share one fsync. A committed group is handed to the
 * completer thread, which publishes each change and completes its future (running whatever waits
 * on it) while the writer commits the next group. The journal is folded when it grows large, after
 * a quiet second when it holds enough, and on a graceful stop.
 */
final class GroupCommitWriter {
    private static final Logger log = LoggerFactory.getLogger(GroupCommitWriter.class);
    private static final int MAX_BATCH = 4096;
    /** Journal rows that trigger a fold even while writes keep coming. */
    static final long FOLD_AT = 100_000;
    /** Journal rows folded once the writer has had nothing to do for {@link #IDLE_BEFORE_FOLD}. */
    static final long FOLD_WHEN_IDLE_AT = 10_000;
    /**
     * A fold takes about a second per 100,000 rows and holds back every write queued meanwhile;
     * waiting for a quiet second keeps it out of bursts, such as the writes of a restart.
     */
    static final Duration IDLE_BEFORE_FOLD = Duration.ofSeconds(1);

    /** A queued write and the future that completes once it is durable. */
    record Pending(StoreWrite write, CompletableFuture<Void> durable) {}

    private final Connection db;
    private final JournalFold fold;
    private final ExecutorService completer;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private volatile boolean stopping;

    GroupCommitWriter(Connection db, ExecutorService completer) {
        this.db = db;
        this.fold = new JournalFold(db);
        this.completer = completer;
    }

    void enqueue(Pending pending) {
        queue.add(pending);
    }

    /** Lets the writer finish what is queued, fold, and return. */
    void stop() {
        stopping = true;
        // an empty marker write wakes the writer so it sees the flag after the last real write
        queue.add(new Pending(StoreWrite.marksOnlyNone(), new CompletableFuture<>()));
    }

    /** Commits until stopped; runs on the writer thread. */
    void run() {
        List<Pending> batch = new ArrayList<>();
        try (PreparedStatement append = db.prepareStatement(MachineRows.JOURNAL_APPEND);
                PreparedStatement mark = db.prepareStatement(
                        "INSERT INTO mark_journal (machine_id, shard_id, epoch, sequence) VALUES (?, ?, ?, ?)");
                PreparedStatement deletion = db.prepareStatement("INSERT INTO journal (deleted, id) VALUES (1, ?)");
                // a retired machine's fence marks go with it (a slot added again under its id starts
                // without them); retirements are rare, so scanning the mark journal for them is cheap
                PreparedStatement dropMarks = db.prepareStatement("DELETE FROM fence_marks WHERE machine_id = ?");
                PreparedStatement dropJournaledMarks =
                        db.prepareStatement("DELETE FROM mark_journal WHERE machine_id = ?");
                PreparedStatement meta = db.prepareStatement("UPDATE meta SET value = max(value, ?) WHERE key = ?")) {
            long journaled = fold.pending();
            while (true) {
                batch.clear();
                Pending first = journaled >= FOLD_WHEN_IDLE_AT
                        ? queue.poll(IDLE_BEFORE_FOLD.toMillis(), TimeUnit.MILLISECONDS)
                        : queue.take();
                if (first == null) {
                    fold.fold();
                    journaled = 0;
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                journaled += commit(batch, append, mark, new Deletion(deletion, dropMarks, dropJournaledMarks), meta);
                if (journaled >= FOLD_AT) {
                    fold.fold();
                    journaled = 0;
                }
                if (stopping && queue.isEmpty()) {
                    if (journaled > 0) {
                        fold.fold(); // a graceful stop leaves a folded file, so the next start reads less
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            log.error("state writer stopped: {}", SqliteStateStore.oneLine(e));
        } finally {
            failQueued(new IllegalStateException("the state store is closed"));
        }
    }

    /** The statements of a machine's retirement: its journal row, and its fence marks dropped. */
    private record Deletion(PreparedStatement row, PreparedStatement marks, PreparedStatement journaledMarks) {
        void run(String machineId) throws SQLException {
            for (PreparedStatement st : List.of(row, marks, journaledMarks)) {
                st.setString(1, machineId);
                st.executeUpdate();
            }
        }
    }

    /** Commits one group of writes; returns how many journal rows it appended (0 if it failed). */
    private long commit(
            List<Pending> batch,
            PreparedStatement append,
            PreparedStatement mark,
            Deletion deletion,
            PreparedStatement meta) {
        long revision = 0;
        long lastOp = 0;
        long appended = 0;
        try {
            db.setAutoCommit(false);
            for (Pending p : batch) {
                StoreWrite w = p.write();
                if (w.machine() != null) {
                    MachineRows.bind(append, w.machine(), w.revision(), w.lastOperation(), w.failure());
                    OperationRows.bind(append, MachineRows.COLUMN_COUNT + 1, w.operation());
                    append.executeUpdate();
                    appended++;
                }
                for (MarkWrite m : w.marks()) {
                    mark.setString(1, m.machineId());
                    mark.setString(2, m.shardId());
                    mark.setLong(3, m.mark().epoch());
                    mark.setLong(4, m.mark().sequence());
                    mark.executeUpdate();
                    appended++;
                }
                if (w.deletedMachineId() != null) {
                    deletion.run(w.deletedMachineId());
                    appended++;
                }
                revision = Math.max(revision, w.revision());
                lastOp = Math.max(lastOp, w.lastOperationNumber());
            }
            updateMeta(meta, "revision", revision);
            updateMeta(meta, "last_operation_number", lastOp);
            db.commit();
        } catch (SQLException | RuntimeException e) {
            log.error("state store commit of {} changes failed: {}", batch.size(), SqliteStateStore.oneLine(e));
            try {
                db.rollback();
            } catch (SQLException ignored) {
                // the connection is unusable; every later write fails too
            }
            List<Pending> failed = List.copyOf(batch);
            completer.execute(() -> failed.forEach(p -> p.durable().completeExceptionally(e)));
            return 0;
        }
        List<Pending> durable = List.copyOf(batch);
        completer.execute(() -> publish(durable));
        return appended;
    }

    /**
     * Runs on the completer, group after group in commit order: publishes each change and completes
     * its future, which runs whatever waits on it (answers to callers, the next step of a machine).
     */
    private static void publish(List<Pending> durable) {
        for (Pending p : durable) {
            try {
                p.write().afterDurable().run();
            } catch (RuntimeException e) {
                log.error("publishing a durable change failed", e);
            }
            p.durable().complete(null);
        }
    }

    private static void updateMeta(PreparedStatement meta, String key, long value) throws SQLException {
        if (value > 0) {
            meta.setLong(1, value);
            meta.setString(2, key);
            meta.executeUpdate();
        }
    }

    private void failQueued(Exception cause) {
        Pending p;
        while ((p = queue.poll()) != null) {
            p.durable().completeExceptionally(cause);
        }
    }
}
