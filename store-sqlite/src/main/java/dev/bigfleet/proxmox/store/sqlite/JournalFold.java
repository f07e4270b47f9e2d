package dev.bigfleet.proxmox.store.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the latest journal entry of every machine and mark into the tables, and the operations the
 * journal recorded into the machines' histories, and empties the journal, in one transaction: a crash
 * in the middle leaves the journal as it was, and it is replayed on load.
 */
final class JournalFold {
    private static final Logger log = LoggerFactory.getLogger(JournalFold.class);

    private final Connection db;

    JournalFold(Connection db) {
        this.db = db;
    }

    /** Rows waiting in the journal tables. */
    long pending() throws SQLException {
        return count("journal") + count("mark_journal");
    }

    void fold() {
        try (Statement st = db.createStatement()) {
            db.setAutoCommit(false);
            String latest = "seq IN (SELECT max(seq) FROM journal GROUP BY id)";
            st.executeUpdate(
                    MachineRows.FOLD_UPSERT + " WHERE deleted = 0 AND " + latest + MachineRows.ON_CONFLICT_UPDATE);
            st.executeUpdate(
                    "DELETE FROM machines WHERE id IN (SELECT id FROM journal WHERE deleted = 1 AND " + latest + ")");
            st.executeUpdate("DELETE FROM fence_marks WHERE machine_id IN"
                    + " (SELECT id FROM journal WHERE deleted = 1 AND " + latest + ")");
            st.executeUpdate("INSERT INTO fence_marks (machine_id, shard_id, epoch, sequence)"
                    + " SELECT machine_id, shard_id, epoch, sequence FROM mark_journal"
                    + " WHERE seq IN (SELECT max(seq) FROM mark_journal GROUP BY machine_id, shard_id)"
                    + " ON CONFLICT (machine_id, shard_id) DO UPDATE SET epoch = excluded.epoch,"
                    + " sequence = excluded.sequence");
            OperationRows.fold(st, "deleted = 1 AND " + latest);
            st.executeUpdate("DELETE FROM journal");
            st.executeUpdate("DELETE FROM mark_journal");
            db.commit();
        } catch (SQLException e) {
            log.error(
                    "folding the state journal failed (it is kept and replayed on load): {}",
                    SqliteStateStore.oneLine(e));
            try {
                db.rollback();
            } catch (SQLException ignored) {
                // the next fold tries again
            }
        }
    }

    private long count(String table) throws SQLException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
