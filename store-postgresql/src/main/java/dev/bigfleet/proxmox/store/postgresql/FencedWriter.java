package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single writer of the leader: takes every write queued since its last commit and commits them
 * as one transaction, so concurrent changes share one WAL flush. Every transaction first takes the
 * lease row in share mode and checks that it still carries this replica's epoch: a successor's
 * acquisition waits for that lock, so no write of a deposed leader ever commits after it. A
 * committed group is handed to the completer, which publishes each change and completes its
 * future while the writer commits the next group.
 */
final class FencedWriter {
    private static final Logger log = LoggerFactory.getLogger(FencedWriter.class);
    private static final int MAX_BATCH = 4096;

    /** A queued write and the future that completes once it is durable. */
    record Pending(StoreWrite write, CompletableFuture<Void> durable) {}

    private final DataSource pool;
    private final String where;
    private final ExecutorService completer;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    /** The epoch writes are made under; 0 while this replica does not lead. */
    private volatile long epoch;

    private volatile Runnable onDeposed = () -> {};
    private volatile boolean stopping;

    FencedWriter(DataSource pool, String where, ExecutorService completer) {
        this.pool = pool;
        this.where = where;
        this.completer = completer;
    }

    void lead(long epoch, Runnable onDeposed) {
        this.onDeposed = onDeposed;
        this.epoch = epoch;
    }

    void stopLeading() {
        epoch = 0;
    }

    boolean leads() {
        return epoch != 0;
    }

    void enqueue(Pending pending) {
        queue.add(pending);
    }

    /** Lets the writer finish what is queued and return. */
    void stop() {
        stopping = true;
        queue.add(new Pending(StoreWrite.marksOnlyNone(), new CompletableFuture<>()));
    }

    /** Commits until stopped; runs on the writer thread. */
    void run() {
        List<Pending> batch = new ArrayList<>();
        try {
            while (true) {
                batch.clear();
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                commit(List.copyOf(batch));
                if (stopping && queue.isEmpty()) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            Pending p;
            while ((p = queue.poll()) != null) {
                p.durable().completeExceptionally(new IllegalStateException("the state store is closed"));
            }
        }
    }

    private void commit(List<Pending> batch) {
        long writingEpoch = epoch;
        if (writingEpoch == 0) {
            fail(batch, new StoreException(where + ": this replica is a standby and writes nothing"));
            return;
        }
        List<StoreWrite> writes = new ArrayList<>(batch.size());
        batch.forEach(p -> writes.add(p.write()));
        CoalescedBatch coalesced = new CoalescedBatch(writes);
        try (Connection db = pool.getConnection()) {
            db.setAutoCommit(false);
            try {
                String deposedBy = fence(db, writingEpoch);
                if (deposedBy != null) {
                    db.rollback();
                    deposed(batch, writingEpoch, deposedBy);
                    return;
                }
                if (!coalesced.machines.isEmpty()) {
                    write(db, coalesced);
                    OperationHistory.write(db, writes);
                }
                db.commit();
            } catch (SQLException | RuntimeException e) {
                db.rollback();
                throw e;
            } finally {
                db.setAutoCommit(true);
            }
        } catch (SQLException | RuntimeException e) {
            log.error("{}: commit of {} changes failed: {}", where, batch.size(), PostgresLease.oneLine(e));
            fail(batch, new StoreException(where + ": " + PostgresLease.oneLine(e), e));
            return;
        }
        completer.execute(() -> publish(batch));
    }

    /** Takes the lease row in share mode; returns null while it is ours, else who holds it now. */
    private static String fence(Connection db, long writingEpoch) throws SQLException {
        try (PreparedStatement st =
                        db.prepareStatement("SELECT epoch, holder_name FROM leader_lease WHERE id = 1 FOR SHARE");
                ResultSet rs = st.executeQuery()) {
            if (!rs.next()) {
                return "nobody";
            }
            return rs.getLong(1) == writingEpoch ? null : rs.getString(2) + " (epoch " + rs.getLong(1) + ")";
        }
    }

    private static void write(Connection db, CoalescedBatch coalesced) throws SQLException {
        long changeSeq;
        try (PreparedStatement st = db.prepareStatement("UPDATE provider_meta SET change_seq = change_seq + 1,"
                + " changed_at = clock_timestamp(), revision = GREATEST(revision, ?),"
                + " last_operation_number = GREATEST(last_operation_number, ?) WHERE id = 1 RETURNING change_seq")) {
            st.setLong(1, coalesced.revision);
            st.setLong(2, coalesced.lastOperationNumber);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("provider_meta is empty");
                }
                changeSeq = rs.getLong(1);
            }
        }
        try (PreparedStatement dropMarks = db.prepareStatement("DELETE FROM fence_marks WHERE machine_id = ?");
                PreparedStatement retire =
                        db.prepareStatement("UPDATE machines SET deleted = true, change_seq = ? WHERE id = ?");
                PreparedStatement upsert = db.prepareStatement(MachineColumns.UPSERT);
                PreparedStatement mark = db.prepareStatement(
                        "INSERT INTO fence_marks (machine_id, shard_id, epoch, sequence) VALUES (?, ?, ?, ?)"
                                + " ON CONFLICT (machine_id, shard_id) DO UPDATE SET epoch = excluded.epoch,"
                                + " sequence = excluded.sequence");
                PreparedStatement touch = db.prepareStatement("UPDATE machines SET change_seq = ? WHERE id = ?")) {
            boolean drops = false;
            boolean retires = false;
            boolean upserts = false;
            boolean marks = false;
            boolean touches = false;
            for (Map.Entry<String, CoalescedBatch.MachineChange> e : coalesced.machines.entrySet()) {
                String id = e.getKey();
                CoalescedBatch.MachineChange change = e.getValue();
                if (change.retired) {
                    dropMarks.setString(1, id);
                    dropMarks.addBatch();
                    drops = true;
                    if (change.snapshot == null) {
                        retire.setLong(1, changeSeq);
                        retire.setString(2, id);
                        retire.addBatch();
                        retires = true;
                    }
                }
                StoreWrite w = change.snapshot;
                if (w != null) {
                    MachineColumns.bind(upsert, changeSeq, w.machine(), w.revision(), w.lastOperation(), w.failure());
                    upsert.addBatch();
                    upserts = true;
                }
                for (Map.Entry<String, FenceMark> m : change.marks.entrySet()) {
                    mark.setString(1, id);
                    mark.setString(2, m.getKey());
                    mark.setLong(3, m.getValue().epoch());
                    mark.setLong(4, m.getValue().sequence());
                    mark.addBatch();
                    marks = true;
                }
                if (w == null && !change.retired && !change.marks.isEmpty()) {
                    // the row itself is unchanged: a new change_seq lets standbys pick up its marks
                    touch.setLong(1, changeSeq);
                    touch.setString(2, id);
                    touch.addBatch();
                    touches = true;
                }
            }
            // in this order: a retired and re-added machine loses its old marks, not its new ones
            if (drops) {
                dropMarks.executeBatch();
            }
            if (retires) {
                retire.executeBatch();
            }
            if (upserts) {
                upsert.executeBatch();
            }
            if (marks) {
                mark.executeBatch();
            }
            if (touches) {
                touch.executeBatch();
            }
        }
    }

    private void deposed(List<Pending> batch, long writingEpoch, String holder) {
        if (epoch == writingEpoch) {
            epoch = 0;
            log.warn("{}: this replica was deposed: the lease is held by {}; its writes are refused", where, holder);
            completer.execute(onDeposed);
        }
        fail(batch, new StoreException(where + ": this replica no longer leads; the leader is " + holder));
    }

    private void fail(List<Pending> batch, Exception cause) {
        completer.execute(() -> batch.forEach(p -> p.durable().completeExceptionally(cause)));
    }

    /** Runs on the completer, group after group in commit order. */
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
}
