package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Reads the shared state, each time in one read-only snapshot so that the machines, their marks
 * and the counters agree: everything at startup, and what changed after a position for a standby.
 * A position is a {@code change_seq}: the leader raises it by one per commit.
 */
final class PostgresReader {
    /** Rows fetched per round trip; without a cursor the driver would hold 100,000 rows at once. */
    private static final int FETCH = 4096;

    /** What one read found: the counters, and the position it read up to. */
    record Snapshot(StoredCounters counters, long position, int machines) {}

    private final DataSource pool;

    PostgresReader(DataSource pool) {
        this.pool = pool;
    }

    /** Every machine the store holds, handed to {@code restore}. */
    Snapshot loadAll(Consumer<StoredMachine> restore) throws SQLException {
        try (Connection db = pool.getConnection()) {
            begin(db);
            try {
                Snapshot head = head(db);
                Map<String, Map<String, FenceMark>> marks = marks(
                        db, "SELECT machine_id, shard_id, epoch, sequence" + " FROM fence_marks", 0, Long.MAX_VALUE);
                int machines = 0;
                MachineColumns columns = new MachineColumns();
                try (Statement st = db.createStatement()) {
                    st.setFetchSize(FETCH);
                    try (ResultSet rs =
                            st.executeQuery("SELECT " + MachineColumns.SELECTED + " FROM machines WHERE NOT deleted")) {
                        while (rs.next()) {
                            restore.accept(stored(columns.read(rs), marks));
                            machines++;
                        }
                    }
                }
                db.commit();
                return new Snapshot(head.counters(), head.position(), machines);
            } finally {
                db.rollback();
            }
        }
    }

    /**
     * Hands {@code follower} every machine whose row or marks changed after {@code after}; returns
     * where it read up to (unchanged when nothing changed).
     */
    Snapshot changedAfter(long after, StoreFollower follower) throws SQLException {
        try (Connection db = pool.getConnection()) {
            begin(db);
            try {
                Snapshot head = head(db);
                if (head.position() <= after) {
                    return new Snapshot(head.counters(), after, 0);
                }
                Map<String, Map<String, FenceMark>> marks = marks(
                        db,
                        "SELECT f.machine_id, f.shard_id, f.epoch, f.sequence FROM fence_marks f"
                                + " JOIN machines m ON m.id = f.machine_id WHERE m.change_seq > ? AND m.change_seq <= ?",
                        after,
                        head.position());
                int machines = 0;
                MachineColumns columns = new MachineColumns();
                try (PreparedStatement st = db.prepareStatement("SELECT " + MachineColumns.SELECTED
                        + " FROM machines WHERE change_seq > ? AND change_seq <= ? ORDER BY change_seq")) {
                    st.setFetchSize(FETCH);
                    st.setLong(1, after);
                    st.setLong(2, head.position());
                    try (ResultSet rs = st.executeQuery()) {
                        while (rs.next()) {
                            MachineColumns.Row row = columns.read(rs);
                            if (row.machine() == null) {
                                follower.removed(row.id());
                            } else {
                                follower.changed(stored(row, marks));
                            }
                            machines++;
                        }
                    }
                }
                db.commit();
                follower.counters(head.counters());
                return new Snapshot(head.counters(), head.position(), machines);
            } finally {
                db.rollback();
            }
        }
    }

    /** One snapshot for every statement that follows, and no way to write through it. */
    private static void begin(Connection db) throws SQLException {
        db.setAutoCommit(false);
        try (Statement st = db.createStatement()) {
            st.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        }
    }

    private static Snapshot head(Connection db) throws SQLException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT revision, last_operation_number, change_seq FROM provider_meta WHERE id = 1")) {
            if (!rs.next()) {
                throw new SQLException("provider_meta is empty");
            }
            return new Snapshot(new StoredCounters(rs.getLong(1), rs.getLong(2)), rs.getLong(3), 0);
        }
    }

    private static Map<String, Map<String, FenceMark>> marks(Connection db, String sql, long after, long upTo)
            throws SQLException {
        Map<String, Map<String, FenceMark>> marks = new HashMap<>();
        try (PreparedStatement st = db.prepareStatement(sql)) {
            st.setFetchSize(FETCH);
            if (sql.contains("?")) {
                st.setLong(1, after);
                st.setLong(2, upTo);
            }
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    marks.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                            .put(rs.getString(2), new FenceMark(rs.getLong(3), rs.getLong(4)));
                }
            }
        }
        return marks;
    }

    private static StoredMachine stored(MachineColumns.Row row, Map<String, Map<String, FenceMark>> marks) {
        return new StoredMachine(
                row.machine(),
                row.revision(),
                row.lastOperation(),
                row.failure(),
                marks.getOrDefault(row.id(), Map.of()));
    }
}
