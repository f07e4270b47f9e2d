package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Machines' operation histories in the {@code operations} table: written in the leader's commit of
 * the changes that start or end them, cut to the newest {@link OperationRecord#KEPT_PER_MACHINE} of
 * each machine, dropped with a retired machine, and read on demand.
 */
final class OperationHistory {
    /** A start inserts; an end keeps the stored start (and order) and sets how it ended. */
    private static final String UPSERT = "INSERT INTO operations (machine_id, operation_id, first_revision, kind,"
            + " started_at, ended_at, outcome, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (machine_id, operation_id) DO UPDATE SET ended_at = excluded.ended_at,"
            + " outcome = excluded.outcome, error = excluded.error,"
            + " started_at = coalesce(operations.started_at, excluded.started_at)";

    private static final String PRUNE = "DELETE FROM operations o USING (SELECT machine_id, operation_id,"
            + " row_number() OVER (PARTITION BY machine_id ORDER BY first_revision DESC) AS newer FROM operations"
            + " WHERE machine_id = ANY (?)) r WHERE o.machine_id = r.machine_id AND o.operation_id = r.operation_id"
            + " AND r.newer > " + OperationRecord.KEPT_PER_MACHINE;

    private static final String READ = "SELECT operation_id, kind, started_at, ended_at, outcome, error"
            + " FROM operations WHERE machine_id = ? ORDER BY first_revision DESC LIMIT "
            + OperationRecord.KEPT_PER_MACHINE;

    private OperationHistory() {}

    /** One operation to write, with the revision of the change that recorded it. */
    private record Recorded(OperationRecord op, long revision) {}

    /**
     * Writes the operations of {@code writes}, in their order: a retirement forgets what its machine
     * did before, a later record of one operation is written over an earlier one.
     */
    static void write(Connection db, List<StoreWrite> writes) throws SQLException {
        Set<String> forget = new LinkedHashSet<>();
        Map<String, Map<String, Recorded>> byMachine = new LinkedHashMap<>();
        for (StoreWrite w : writes) {
            if (w.deletedMachineId() != null) {
                forget.add(w.deletedMachineId());
                byMachine.remove(w.deletedMachineId());
            }
            if (w.operation() != null) {
                Map<String, Recorded> ops =
                        byMachine.computeIfAbsent(w.machine().id(), k -> new LinkedHashMap<>());
                OperationRecord op = w.operation();
                Recorded earlier = ops.get(op.operationId());
                ops.put(
                        op.operationId(),
                        earlier == null
                                ? new Recorded(op, w.revision())
                                : new Recorded(op.over(earlier.op()), earlier.revision()));
            }
        }
        if (!forget.isEmpty()) {
            try (PreparedStatement st = db.prepareStatement("DELETE FROM operations WHERE machine_id = ANY (?)")) {
                st.setArray(1, db.createArrayOf("text", forget.toArray()));
                st.executeUpdate();
            }
        }
        if (byMachine.isEmpty()) {
            return;
        }
        try (PreparedStatement st = db.prepareStatement(UPSERT)) {
            for (Map.Entry<String, Map<String, Recorded>> e : byMachine.entrySet()) {
                for (Recorded r : e.getValue().values()) {
                    bind(st, e.getKey(), r);
                    st.addBatch();
                }
            }
            st.executeBatch();
        }
        try (PreparedStatement st = db.prepareStatement(PRUNE)) {
            st.setArray(1, db.createArrayOf("text", byMachine.keySet().toArray()));
            st.executeUpdate();
        }
    }

    private static void bind(PreparedStatement st, String machineId, Recorded r) throws SQLException {
        OperationRecord op = r.op();
        st.setString(1, machineId);
        st.setString(2, op.operationId());
        st.setLong(3, r.revision());
        st.setString(4, op.kind().name());
        setMillis(st, 5, op.startedAt());
        setMillis(st, 6, op.endedAt());
        st.setString(7, op.outcome().name());
        st.setString(8, op.error());
    }

    private static void setMillis(PreparedStatement st, int column, Optional<Instant> at) throws SQLException {
        if (at.isPresent()) {
            st.setLong(column, at.get().toEpochMilli());
        } else {
            st.setNull(column, Types.BIGINT);
        }
    }

    /** The history of {@code machineId}, newest first. */
    static List<OperationRecord> read(Connection db, String machineId) throws SQLException {
        List<OperationRecord> out = new ArrayList<>();
        try (PreparedStatement st = db.prepareStatement(READ)) {
            st.setString(1, machineId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(new OperationRecord(
                            parse(TransitionKind.class, rs.getString(2), machineId),
                            rs.getString(1),
                            millis(rs, 3),
                            millis(rs, 4),
                            parse(OperationOutcome.class, rs.getString(5), machineId),
                            rs.getString(6)));
                }
            }
        }
        return out;
    }

    private static Optional<Instant> millis(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(value));
    }

    private static <E extends Enum<E>> E parse(Class<E> type, String name, String machineId) throws SQLException {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new SQLException("an operation of machine \"" + machineId + "\" has an unknown "
                    + type.getSimpleName() + " \"" + name + "\"");
        }
    }
}
