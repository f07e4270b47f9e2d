package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;

/**
 * Reads what the file holds, each machine once, handing batches to the loading thread as it goes:
 * the journal newest first (the first row of an id is its latest change), then the table rows of
 * machines the journal did not mention. A row that is not the one that counts costs only its id.
 */
final class JournalReader {
    /** Machines handed to the loading thread at a time. */
    private static final int BATCH = 1024;

    private final Connection db;
    private final Path path;
    private final BlockingQueue<List<StoredMachine>> out;

    JournalReader(Connection db, Path path, BlockingQueue<List<StoredMachine>> out) {
        this.db = db;
        this.path = path;
        this.out = out;
    }

    /** @return the stored counters, or empty for a fresh file */
    Optional<StoredCounters> read() throws StoreException, InterruptedException {
        try (Statement st = db.createStatement()) {
            long revision = metaLong(st, "revision");
            long lastOp = metaLong(st, "last_operation_number");
            Map<String, Map<String, FenceMark>> marks = readMarks(st);
            MachineRows rows = new MachineRows();
            Set<String> journaled = new HashSet<>();
            List<StoredMachine> batch = new ArrayList<>(BATCH);
            long machines = 0;
            try (ResultSet rs = st.executeQuery(MachineRows.JOURNAL_NEWEST_FIRST)) {
                while (rs.next()) {
                    String id = MachineRows.id(rs);
                    if (journaled.add(id) && !MachineRows.isDeletion(rs)) {
                        batch = handOver(batch, stored(rows, rs, id, marks));
                        machines++;
                    }
                }
            }
            try (ResultSet rs = st.executeQuery(MachineRows.TABLE)) {
                while (rs.next()) {
                    String id = MachineRows.id(rs);
                    if (!journaled.contains(id)) {
                        batch = handOver(batch, stored(rows, rs, id, marks));
                        machines++;
                    }
                }
            }
            if (!batch.isEmpty()) {
                out.put(batch);
            }
            if (machines == 0 && revision == 0) {
                return Optional.empty();
            }
            return Optional.of(new StoredCounters(revision, lastOp));
        } catch (SQLException e) {
            throw new StoreException("--state " + path + ": cannot read: " + SqliteStateStore.oneLine(e), e);
        }
    }

    /** Adds {@code machine} to the batch; a full batch goes to the loading thread and a new one starts. */
    private List<StoredMachine> handOver(List<StoredMachine> batch, StoredMachine machine) throws InterruptedException {
        batch.add(machine);
        if (batch.size() < BATCH) {
            return batch;
        }
        out.put(batch);
        return new ArrayList<>(BATCH);
    }

    private static StoredMachine stored(
            MachineRows rows, ResultSet rs, String id, Map<String, Map<String, FenceMark>> marks) throws SQLException {
        MachineRows.Row row = rows.read(rs, id);
        return new StoredMachine(
                row.machine(), row.revision(), row.lastOperation(), row.failure(), marks.getOrDefault(id, Map.of()));
    }

    /** The fence marks of the table, raised by any the journal holds. */
    private static Map<String, Map<String, FenceMark>> readMarks(Statement st) throws SQLException {
        Map<String, Map<String, FenceMark>> marks = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT machine_id, shard_id, epoch, sequence FROM fence_marks")) {
            while (rs.next()) {
                marks.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                        .put(rs.getString(2), new FenceMark(rs.getLong(3), rs.getLong(4)));
            }
        }
        try (ResultSet rs = st.executeQuery("SELECT machine_id, shard_id, epoch, sequence FROM mark_journal")) {
            while (rs.next()) {
                marks.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                        .merge(rs.getString(2), new FenceMark(rs.getLong(3), rs.getLong(4)), JournalReader::higher);
            }
        }
        return marks;
    }

    private static FenceMark higher(FenceMark a, FenceMark b) {
        return b.epoch() > a.epoch() || (b.epoch() == a.epoch() && b.sequence() > a.sequence()) ? b : a;
    }

    private static long metaLong(Statement st, String key) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = '" + key + "'")) {
            if (!rs.next()) {
                throw new SQLException("meta entry \"" + key + "\" is missing");
            }
            return rs.getLong(1);
        }
    }
}
