package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads machines' operation histories on a read-only connection of its own, opened at the first read:
 * in WAL mode it sees what is committed and never holds back the writer. Reads are rare (an operator
 * opening a machine), so one connection serves them one at a time.
 */
final class HistoryReader implements AutoCloseable {
    private final Path path;
    private Connection db;
    private PreparedStatement folded;
    private PreparedStatement journaled;
    private boolean closed;

    HistoryReader(Path path) {
        this.path = path;
    }

    synchronized List<OperationRecord> read(String machineId) throws StoreException {
        if (closed) {
            throw new StoreException("--state " + path + ": the state store is closed");
        }
        try {
            if (db == null) {
                db = StateFile.openForReading(path);
                folded = db.prepareStatement(OperationRows.FOLDED);
                journaled = db.prepareStatement(OperationRows.JOURNALED);
            }
            return OperationRows.read(folded, journaled, machineId);
        } catch (SQLException e) {
            throw new StoreException(
                    "--state " + path + ": cannot read the operations of " + machineId + ": "
                            + SqliteStateStore.oneLine(e),
                    e);
        }
    }

    @Override
    public synchronized void close() throws SQLException {
        closed = true;
        if (db != null) {
            db.close();
        }
    }
}
