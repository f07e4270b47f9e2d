package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.SchemaScript;
import dev.bigfleet.proxmox.engine.store.StoreException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The database's schema ({@code schema.sql}), its version and the mark that the file is ours, and the
 * key that signs List cursors, minted once with the file.
 */
final class StateSchema {
    static final int VERSION = 3;
    /** The columns version 2 added to {@code machines} and {@code journal}: what a restart and a cleanup need. */
    private static final List<String> ADDED_IN_2 = List.of(
            "last_op_deadline INTEGER",
            "last_op_grace INTEGER",
            "failed_kind TEXT",
            "failed_at INTEGER",
            "failed_bound INTEGER",
            "failed_error TEXT",
            "cleanup_attempts INTEGER",
            "cleanup_not_before INTEGER");
    /** The columns version 3 added to {@code journal} only: the operation a change starts or ends. */
    private static final List<String> JOURNAL_ADDED_IN_3 = List.of(
            "op_id TEXT",
            "op_kind TEXT",
            "op_started_at INTEGER",
            "op_ended_at INTEGER",
            "op_outcome TEXT",
            "op_error TEXT");
    /** The tables version 3 added, as {@code schema.sql} creates them: the operation history. */
    private static final List<String> TABLES_ADDED_IN_3 = List.of("operations");
    /** "BFPX" in the database header: marks a file as ours. */
    static final int APPLICATION_ID = 0x42465058;

    private StateSchema() {}

    /** Creates every table of a fresh file, in one transaction. */
    static void create(Connection db) throws SQLException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        db.setAutoCommit(false);
        try (Statement st = db.createStatement()) {
            for (String statement : statements()) {
                st.execute(statement);
            }
            st.execute("PRAGMA application_id=" + APPLICATION_ID);
            st.execute("PRAGMA user_version=" + VERSION);
        }
        try (PreparedStatement st = db.prepareStatement("INSERT INTO meta (key, value) VALUES ('cursor_key', ?)")) {
            st.setBytes(1, key);
            st.executeUpdate();
        }
        db.commit();
        db.setAutoCommit(true);
    }

    /**
     * Brings a file of an older schema to this one, in one transaction (a crash leaves it as it was):
     * version 1 gains the columns of {@link #ADDED_IN_2}, empty in every existing row; version 2 (and 1)
     * the columns of {@link #JOURNAL_ADDED_IN_3} and the (empty) tables of {@link #TABLES_ADDED_IN_3}.
     */
    static void upgrade(Connection db, Path path) throws SQLException {
        int version;
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA user_version")) {
            version = rs.next() ? rs.getInt(1) : 0;
        }
        if (version >= VERSION) {
            return;
        }
        db.setAutoCommit(false);
        try (Statement st = db.createStatement()) {
            if (version < 2) {
                for (String table : List.of("machines", "journal")) {
                    for (String column : ADDED_IN_2) {
                        st.execute("ALTER TABLE " + table + " ADD COLUMN " + column);
                    }
                }
            }
            for (String column : JOURNAL_ADDED_IN_3) {
                st.execute("ALTER TABLE journal ADD COLUMN " + column);
            }
            for (String table : TABLES_ADDED_IN_3) {
                st.execute(creation(table));
            }
            st.execute("PRAGMA user_version=" + VERSION);
            db.commit();
        } catch (SQLException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(true);
        }
        LoggerFactory.getLogger(StateSchema.class)
                .info("state file {} upgraded from schema version {} to {}", path, version, VERSION);
    }

    static byte[] cursorKey(Connection db, Path path) throws SQLException, StoreException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'cursor_key'")) {
            if (!rs.next()) {
                throw new StoreException("--state " + path + ": the database is damaged (no cursor key)");
            }
            return rs.getBytes(1);
        }
    }

    /** The statement of {@code schema.sql} that creates {@code table}. */
    private static String creation(String table) {
        return statements().stream()
                .filter(s -> s.startsWith("CREATE TABLE " + table + " "))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("schema.sql creates no table " + table));
    }

    private static List<String> statements() {
        return SchemaScript.statements(StateSchema.class, "schema.sql");
    }
}
