package dev.bigfleet.proxmox.store.sqlite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Maps machines to rows of the {@code machines} table and back. */
final class MachineRows {
    static final String COLUMNS = "id, revision, state, host_provider, host_ref, instance_type, zone, capacity_type,"
            + " price_per_hour, interruption_probability, resources, labels, allocatable, last_error, cluster,"
            + " shard_metadata, last_op_kind, last_op_id, last_op_cluster, last_op_deadline, last_op_grace,"
            + " failed_kind, failed_at, failed_bound, failed_error, cleanup_attempts, cleanup_not_before";
    /** The SET clause that makes an insert of a machine's row replace the row it already has. */
    static final String ON_CONFLICT_UPDATE = " ON CONFLICT (id) DO UPDATE SET revision = excluded.revision,"
            + " state = excluded.state, host_provider = excluded.host_provider, host_ref = excluded.host_ref,"
            + " instance_type = excluded.instance_type, zone = excluded.zone, capacity_type = excluded.capacity_type,"
            + " price_per_hour = excluded.price_per_hour, interruption_probability = excluded.interruption_probability,"
            + " resources = excluded.resources, labels = excluded.labels, allocatable = excluded.allocatable,"
            + " last_error = excluded.last_error, cluster = excluded.cluster, shard_metadata = excluded.shard_metadata,"
            + " last_op_kind = excluded.last_op_kind, last_op_id = excluded.last_op_id,"
            + " last_op_cluster = excluded.last_op_cluster, last_op_deadline = excluded.last_op_deadline,"
            + " last_op_grace = excluded.last_op_grace, failed_kind = excluded.failed_kind,"
            + " failed_at = excluded.failed_at, failed_bound = excluded.failed_bound,"
            + " failed_error = excluded.failed_error, cleanup_attempts = excluded.cleanup_attempts,"
            + " cleanup_not_before = excluded.cleanup_not_before";

    /** How many columns {@link #COLUMNS} names, bound by {@link #bind}. */
    static final int COLUMN_COUNT = 27;

    /**
     * Appends a machine's new row to the journal: parameters as in {@link #bind}, then the
     * operation it starts or ends as in {@link OperationRows#bind}, from {@code COLUMN_COUNT + 1}.
     */
    static final String JOURNAL_APPEND = "INSERT INTO journal (deleted, " + COLUMNS + ", "
            + OperationRows.JOURNAL_COLUMNS + ") VALUES (0"
            + ", ?".repeat(COLUMN_COUNT + OperationRows.JOURNAL_COLUMN_COUNT) + ")";
    /** The table's rows, in {@link #COLUMNS} order. */
    static final String TABLE = "SELECT " + COLUMNS + " FROM machines";
    /** The journal's rows, newest first, in {@link #COLUMNS} order and then whether the row is a deletion. */
    static final String JOURNAL_NEWEST_FIRST = "SELECT " + COLUMNS + ", deleted FROM journal ORDER BY seq DESC";
    /** Copies journal rows into the table; the caller adds the WHERE clause and {@link #ON_CONFLICT_UPDATE}. */
    static final String FOLD_UPSERT = "INSERT INTO machines (" + COLUMNS + ") SELECT " + COLUMNS + " FROM journal";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
    /** Slots share resources, labels and allocatable maps; decoding each text once keeps 100k rows small. */
    private final Map<String, Map<String, String>> decoded = new HashMap<>();

    static void bind(PreparedStatement st, Machine m, long revision, LastOperation last, FailureRecord failure)
            throws SQLException {
        st.setString(1, m.id());
        st.setLong(2, revision);
        st.setString(3, m.state().name());
        st.setString(4, m.host().provider());
        st.setString(5, m.host().ref());
        st.setString(6, m.instanceType());
        st.setString(7, m.zone());
        st.setString(8, m.capacityType().name());
        st.setDouble(9, m.pricePerHour());
        st.setDouble(10, m.interruptionProbability());
        st.setString(11, json(m.resources()));
        st.setString(12, json(m.labels()));
        st.setString(13, json(m.allocatable()));
        st.setString(14, m.lastError());
        st.setString(15, m.cluster());
        st.setString(16, json(m.shardMetadata()));
        st.setString(17, last == null ? null : last.kind().name());
        st.setString(18, last == null ? null : last.operationId());
        st.setString(19, last == null ? null : last.clusterId());
        setMillis(st, 20, last == null ? null : last.deadline().orElse(null));
        setLong(st, 21, last == null ? null : last.graceSeconds());
        st.setString(22, failure == null ? null : failure.kind().name());
        setMillis(st, 23, failure == null ? null : failure.failedAt());
        setLong(st, 24, failure == null ? null : (failure.bound() ? 1L : 0L));
        st.setString(25, failure == null ? null : failure.error());
        setLong(st, 26, failure == null ? null : (long) failure.cleanupAttempts());
        setMillis(st, 27, failure == null ? null : failure.cleanupNotBefore());
    }

    private static void setMillis(PreparedStatement st, int column, Instant at) throws SQLException {
        setLong(st, column, at == null ? null : at.toEpochMilli());
    }

    private static void setLong(PreparedStatement st, int column, Long value) throws SQLException {
        if (value == null) {
            st.setNull(column, Types.INTEGER);
        } else {
            st.setLong(column, value);
        }
    }

    /** A machine as a row holds it. */
    record Row(Machine machine, long revision, LastOperation lastOperation, FailureRecord failure) {}

    /** Where {@link #JOURNAL_NEWEST_FIRST} puts the deletion flag: after the columns. */
    private static final int DELETED_COLUMN = 28;

    /** The id of a row of {@link #TABLE} or {@link #JOURNAL_NEWEST_FIRST}. */
    static String id(ResultSet rs) throws SQLException {
        return text(rs, 1);
    }

    /** For a row of {@link #JOURNAL_NEWEST_FIRST}: whether it retires the machine. */
    static boolean isDeletion(ResultSet rs) throws SQLException {
        return rs.getInt(DELETED_COLUMN) == 1;
    }

    /** Decodes a row of {@link #TABLE} or {@link #JOURNAL_NEWEST_FIRST} whose id is {@code id}. */
    Row read(ResultSet rs, String id) throws SQLException {
        Machine machine = Machine.builder(id)
                .state(enumValue(MachineState.class, text(rs, 3), id))
                .host(new HostRef(text(rs, 4), text(rs, 5)))
                .instanceType(text(rs, 6))
                .zone(text(rs, 7))
                .capacityType(enumValue(CapacityType.class, text(rs, 8), id))
                .pricePerHour(rs.getDouble(9))
                .interruptionProbability(rs.getDouble(10))
                .resources(map(text(rs, 11), id))
                .labels(map(text(rs, 12), id))
                .allocatable(map(text(rs, 13), id))
                .lastError(text(rs, 14))
                .cluster(text(rs, 15))
                .shardMetadata(map(text(rs, 16), id))
                .build();
        String kind = text(rs, 17);
        LastOperation last = kind == null
                ? null
                : new LastOperation(
                        enumValue(TransitionKind.class, kind, id),
                        text(rs, 18),
                        text(rs, 19),
                        Optional.ofNullable(instant(rs, 20)),
                        rs.getLong(21));
        String failedKind = text(rs, 22);
        FailureRecord failure = failedKind == null
                ? null
                : new FailureRecord(
                        enumValue(TransitionKind.class, failedKind, id),
                        instant(rs, 23),
                        rs.getLong(24) == 1,
                        text(rs, 25),
                        rs.getInt(26),
                        instant(rs, 27));
        return new Row(machine, rs.getLong(2), last, failure);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    /**
     * A text column through its UTF-8 bytes: one copy out of SQLite, where the driver's string
     * path makes a direct buffer per value (it dominated the time to load 100,000 rows).
     */
    private static String text(ResultSet rs, int column) throws SQLException {
        byte[] utf8 = rs.getBytes(column);
        return utf8 == null ? null : new String(utf8, StandardCharsets.UTF_8);
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String name, String id) throws SQLException {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException | NullPointerException e) {
            // never guess: a value this version does not know means the file is newer or damaged
            throw new SQLException(
                    "machine \"" + id + "\" has an unknown " + type.getSimpleName() + " \"" + name + "\"");
        }
    }

    private Map<String, String> map(String text, String id) throws SQLException {
        if (text == null || text.equals("{}")) {
            return Map.of();
        }
        Map<String, String> cached = decoded.get(text);
        if (cached != null) {
            return cached;
        }
        try {
            Map<String, String> value = Map.copyOf(JSON.readValue(text, STRING_MAP));
            if (decoded.size() < 10_000) {
                decoded.put(text, value);
            }
            return value;
        } catch (JsonProcessingException e) {
            throw new SQLException("machine \"" + id + "\" has a damaged map column");
        }
    }

    /**
     * Snapshots share their resources, labels and allocatable maps with the previous snapshot, so
     * the writer remembers the text of the last maps it encoded (by identity) instead of encoding
     * them again on every change.
     */
    private static final Map<Map<String, String>, String> ENCODED =
            java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

    private static String json(Map<String, String> map) {
        if (map.isEmpty()) {
            return "{}";
        }
        if (map.size() <= 8) {
            String cached = ENCODED.get(map);
            if (cached != null) {
                return cached;
            }
        }
        try {
            String text = JSON.writeValueAsString(new java.util.TreeMap<>(map));
            if (map.size() <= 8) {
                ENCODED.put(map, text);
            }
            return text;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string map always serialises", e);
        }
    }
}
