package dev.bigfleet.proxmox.store.postgresql;

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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Maps machines to rows of the {@code machines} table and back. */
final class MachineColumns {
    /** The data columns, after {@code id}: what a machine's row holds. */
    private static final String DATA = "revision, state, host_provider, host_ref, instance_type, zone, capacity_type,"
            + " price_per_hour, interruption_probability, resources, labels, allocatable, last_error, cluster,"
            + " shard_metadata, last_op_kind, last_op_id, last_op_cluster, last_op_deadline, last_op_grace,"
            + " failed_kind, failed_at, failed_bound, failed_error, cleanup_attempts, cleanup_not_before";

    /** Every column a read returns, in the order {@link #read} expects. */
    static final String SELECTED = "id, deleted, " + DATA;

    /**
     * Writes a machine's row, replacing the one it has (a retired machine's too); parameters: the id,
     * the commit's change_seq, then the data as in {@link #bind}.
     */
    static final String UPSERT = "INSERT INTO machines (id, change_seq, deleted, " + DATA + ") VALUES (?, ?, false,"
            + " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (id) DO UPDATE SET change_seq = excluded.change_seq, deleted = false,"
            + " revision = excluded.revision, state = excluded.state, host_provider = excluded.host_provider,"
            + " host_ref = excluded.host_ref, instance_type = excluded.instance_type, zone = excluded.zone,"
            + " capacity_type = excluded.capacity_type, price_per_hour = excluded.price_per_hour,"
            + " interruption_probability = excluded.interruption_probability, resources = excluded.resources,"
            + " labels = excluded.labels, allocatable = excluded.allocatable, last_error = excluded.last_error,"
            + " cluster = excluded.cluster, shard_metadata = excluded.shard_metadata,"
            + " last_op_kind = excluded.last_op_kind, last_op_id = excluded.last_op_id,"
            + " last_op_cluster = excluded.last_op_cluster, last_op_deadline = excluded.last_op_deadline,"
            + " last_op_grace = excluded.last_op_grace, failed_kind = excluded.failed_kind,"
            + " failed_at = excluded.failed_at, failed_bound = excluded.failed_bound,"
            + " failed_error = excluded.failed_error, cleanup_attempts = excluded.cleanup_attempts,"
            + " cleanup_not_before = excluded.cleanup_not_before";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
    /** Slots share resources, labels and allocatable maps; decoding each text once keeps 100k rows small. */
    private final Map<String, Map<String, String>> decoded = new HashMap<>();

    /** Binds {@link #UPSERT}'s parameters. */
    static void bind(
            PreparedStatement st, long changeSeq, Machine m, long revision, LastOperation last, FailureRecord failure)
            throws SQLException {
        st.setString(1, m.id());
        st.setLong(2, changeSeq);
        st.setLong(3, revision);
        st.setString(4, m.state().name());
        st.setString(5, m.host().provider());
        st.setString(6, m.host().ref());
        st.setString(7, m.instanceType());
        st.setString(8, m.zone());
        st.setString(9, m.capacityType().name());
        st.setDouble(10, m.pricePerHour());
        st.setDouble(11, m.interruptionProbability());
        st.setString(12, json(m.resources()));
        st.setString(13, json(m.labels()));
        st.setString(14, json(m.allocatable()));
        st.setString(15, m.lastError());
        st.setString(16, m.cluster());
        st.setString(17, json(m.shardMetadata()));
        st.setString(18, last == null ? null : last.kind().name());
        st.setString(19, last == null ? null : last.operationId());
        st.setString(20, last == null ? null : last.clusterId());
        setMillis(st, 21, last == null ? null : last.deadline().orElse(null));
        setLong(st, 22, last == null ? null : last.graceSeconds());
        st.setString(23, failure == null ? null : failure.kind().name());
        setMillis(st, 24, failure == null ? null : failure.failedAt());
        if (failure == null) {
            st.setNull(25, Types.BOOLEAN);
        } else {
            st.setBoolean(25, failure.bound());
        }
        st.setString(26, failure == null ? null : failure.error());
        if (failure == null) {
            st.setNull(27, Types.INTEGER);
        } else {
            st.setInt(27, failure.cleanupAttempts());
        }
        setMillis(st, 28, failure == null ? null : failure.cleanupNotBefore());
    }

    private static void setMillis(PreparedStatement st, int column, Instant at) throws SQLException {
        setLong(st, column, at == null ? null : at.toEpochMilli());
    }

    private static void setLong(PreparedStatement st, int column, Long value) throws SQLException {
        if (value == null) {
            st.setNull(column, Types.BIGINT);
        } else {
            st.setLong(column, value);
        }
    }

    /** A machine as a row holds it; {@code machine} is null for a retired one. */
    record Row(String id, Machine machine, long revision, LastOperation lastOperation, FailureRecord failure) {}

    /** Decodes a row selected with {@link #SELECTED}. */
    Row read(ResultSet rs) throws SQLException {
        String id = rs.getString(1);
        if (rs.getBoolean(2)) {
            return new Row(id, null, 0, null, null);
        }
        Machine machine = Machine.builder(id)
                .state(enumValue(MachineState.class, rs.getString(4), id))
                .host(new HostRef(rs.getString(5), rs.getString(6)))
                .instanceType(rs.getString(7))
                .zone(rs.getString(8))
                .capacityType(enumValue(CapacityType.class, rs.getString(9), id))
                .pricePerHour(rs.getDouble(10))
                .interruptionProbability(rs.getDouble(11))
                .resources(map(rs.getString(12), id))
                .labels(map(rs.getString(13), id))
                .allocatable(map(rs.getString(14), id))
                .lastError(rs.getString(15))
                .cluster(rs.getString(16))
                .shardMetadata(map(rs.getString(17), id))
                .build();
        String kind = rs.getString(18);
        LastOperation last = kind == null
                ? null
                : new LastOperation(
                        enumValue(TransitionKind.class, kind, id),
                        rs.getString(19),
                        rs.getString(20),
                        Optional.ofNullable(instant(rs, 21)),
                        rs.getLong(22));
        String failedKind = rs.getString(23);
        FailureRecord failure = failedKind == null
                ? null
                : new FailureRecord(
                        enumValue(TransitionKind.class, failedKind, id),
                        instant(rs, 24),
                        rs.getBoolean(25),
                        rs.getString(26),
                        rs.getInt(27),
                        instant(rs, 28));
        return new Row(id, machine, rs.getLong(3), last, failure);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String name, String id) throws SQLException {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException | NullPointerException e) {
            // never guess: a value this version does not know means a newer provider wrote it
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

    private static String json(Map<String, String> map) {
        if (map.isEmpty()) {
            return "{}";
        }
        try {
            return JSON.writeValueAsString(new TreeMap<>(map));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string map always serialises", e);
        }
    }
}
