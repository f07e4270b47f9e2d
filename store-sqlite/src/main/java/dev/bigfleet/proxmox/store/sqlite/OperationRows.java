package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Operation histories: the {@code op_*} columns a journal row carries when its change starts or ends
 * an operation, their fold into the {@code operations} table (pruned to the newest {@link
 * OperationRecord#KEPT_PER_MACHINE} of each machine), and the read of one machine's history.
 */
final class OperationRows {
    /** The journal's operation columns, bound after the machine's by {@link #bind}. */
    static final String JOURNAL_COLUMNS = "op_id, op_kind, op_started_at, op_ended_at, op_outcome, op_error";

    static final int JOURNAL_COLUMN_COUNT = 6;

    /** Starts first (an end folded before its start would lose the start), then ends over them. */
    private static final String FOLD_STARTS = "INSERT INTO operations (machine_id, operation_id, first_revision,"
            + " kind, started_at, ended_at, outcome, error) SELECT id, op_id, revision, op_kind, op_started_at,"
            + " op_ended_at, op_outcome, op_error FROM journal WHERE op_id IS NOT NULL AND op_outcome = 'RUNNING'"
            + " ON CONFLICT (machine_id, operation_id) DO NOTHING";

    private static final String FOLD_ENDS = "INSERT INTO operations (machine_id, operation_id, first_revision,"
            + " kind, started_at, ended_at, outcome, error) SELECT id, op_id, revision, op_kind, op_started_at,"
            + " op_ended_at, op_outcome, op_error FROM journal WHERE op_id IS NOT NULL AND op_outcome <> 'RUNNING'"
            + " ON CONFLICT (machine_id, operation_id) DO UPDATE SET ended_at = excluded.ended_at,"
            + " outcome = excluded.outcome, error = excluded.error,"
            + " started_at = coalesce(operations.started_at, excluded.started_at)";

    /** Only machines the journal recorded an operation of can have grown past the bound. */
    private static final String PRUNE = "DELETE FROM operations WHERE (machine_id, operation_id) IN"
            + " (SELECT machine_id, operation_id FROM (SELECT machine_id, operation_id, row_number() OVER"
            + " (PARTITION BY machine_id ORDER BY first_revision DESC) AS newer FROM operations WHERE machine_id IN"
            + " (SELECT id FROM journal WHERE op_id IS NOT NULL)) WHERE newer > " + OperationRecord.KEPT_PER_MACHINE
            + ")";

    /** One machine's folded operations, then its journal rows in order (a deletion forgets what came before). */
    static final String FOLDED = "SELECT operation_id, kind, started_at, ended_at, outcome, error, first_revision"
            + " FROM operations WHERE machine_id = ?";

    static final String JOURNALED = "SELECT op_id, op_kind, op_started_at, op_ended_at, op_outcome, op_error,"
            + " revision, deleted FROM journal WHERE id = ? ORDER BY seq";

    private OperationRows() {}

    /** Binds {@code op} (or NULLs) to the {@link #JOURNAL_COLUMNS} starting at parameter {@code first}. */
    static void bind(PreparedStatement st, int first, OperationRecord op) throws SQLException {
        st.setString(first, op == null ? null : op.operationId());
        st.setString(first + 1, op == null ? null : op.kind().name());
        setMillis(st, first + 2, op == null ? null : op.startedAt().orElse(null));
        setMillis(st, first + 3, op == null ? null : op.endedAt().orElse(null));
        st.setString(first + 4, op == null ? null : op.outcome().name());
        st.setString(first + 5, op == null ? null : op.error());
    }

    private static void setMillis(PreparedStatement st, int column, Instant at) throws SQLException {
        if (at == null) {
            st.setNull(column, Types.INTEGER);
        } else {
            st.setLong(column, at.toEpochMilli());
        }
    }

    /**
     * Part of a fold, in its transaction and before the journal is emptied: the journal's operations
     * into the table, each machine cut to its newest, and the operations of retired machines dropped.
     *
     * @param retired a condition on {@code journal} selecting the rows that retire a machine
     */
    static void fold(Statement st, String retired) throws SQLException {
        st.executeUpdate(FOLD_STARTS);
        st.executeUpdate(FOLD_ENDS);
        st.executeUpdate(PRUNE);
        st.executeUpdate("DELETE FROM operations WHERE machine_id IN (SELECT id FROM journal WHERE " + retired + ")");
    }

    /** One operation as read, and the revision of the change that first recorded it (its place in order). */
    private record Read(OperationRecord op, long order) {}

    /** The history of {@code machineId}, newest first, from the table and the journal not yet folded. */
    static List<OperationRecord> read(PreparedStatement folded, PreparedStatement journaled, String machineId)
            throws SQLException {
        Map<String, Read> byId = new LinkedHashMap<>();
        folded.setString(1, machineId);
        try (ResultSet rs = folded.executeQuery()) {
            while (rs.next()) {
                OperationRecord op = record(rs, machineId);
                byId.put(op.operationId(), new Read(op, rs.getLong(7)));
            }
        }
        journaled.setString(1, machineId);
        try (ResultSet rs = journaled.executeQuery()) {
            while (rs.next()) {
                if (rs.getInt(8) == 1) {
                    byId.clear(); // retired: what it did before is no longer its history
                } else if (rs.getString(1) != null) {
                    OperationRecord op = record(rs, machineId);
                    Read stored = byId.get(op.operationId());
                    byId.put(
                            op.operationId(),
                            stored == null
                                    ? new Read(op, rs.getLong(7))
                                    : new Read(op.over(stored.op()), stored.order()));
                }
            }
        }
        List<Read> newestFirst = new ArrayList<>(byId.values());
        newestFirst.sort(Comparator.comparingLong(Read::order).reversed());
        return newestFirst.stream()
                .limit(OperationRecord.KEPT_PER_MACHINE)
                .map(Read::op)
                .toList();
    }

    /** Columns 1-6 of {@link #FOLDED} or {@link #JOURNALED} as a record. */
    private static OperationRecord record(ResultSet rs, String machineId) throws SQLException {
        return new OperationRecord(
                kind(rs.getString(2), machineId),
                rs.getString(1),
                Optional.ofNullable(instant(rs, 3)),
                Optional.ofNullable(instant(rs, 4)),
                outcome(rs.getString(5), machineId),
                rs.getString(6));
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    private static TransitionKind kind(String name, String machineId) throws SQLException {
        try {
            return TransitionKind.valueOf(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException(
                    "an operation of machine \"" + machineId + "\" has an unknown kind \"" + name + "\"");
        }
    }

    private static OperationOutcome outcome(String name, String machineId) throws SQLException {
        try {
            return OperationOutcome.valueOf(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException(
                    "an operation of machine \"" + machineId + "\" has an unknown outcome \"" + name + "\"");
        }
    }
}
