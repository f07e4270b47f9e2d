package dev.bigfleet.proxmox.store.postgresql;

import dev.bigfleet.proxmox.engine.store.SchemaScript;
import dev.bigfleet.proxmox.engine.store.StoreException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * The database's schema ({@code schema.sql}): created by the first replica that finds the database
 * empty, checked by every replica on start. Replicas starting together take turns through an
 * advisory lock. A database that holds tables of something else, or a schema newer than this
 * provider knows, is refused and left as it was.
 */
final class PostgresSchema {
    static final int VERSION = 1;
    /** What {@code provider_meta.application} holds in a provider's database. */
    static final String APPLICATION = "bigfleet-proxmox-state";
    /** The advisory lock that serialises schema creation ("BFPX"). */
    private static final long SCHEMA_LOCK = 0x42465058L;

    private PostgresSchema() {}

    /** Creates the schema in an empty database, checks an existing one; returns the cursor key. */
    static byte[] ensure(Connection db, String where) throws SQLException, StoreException {
        db.setAutoCommit(false);
        try {
            try (Statement st = db.createStatement()) {
                st.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            }
            byte[] key = tableExists(db, "provider_meta") ? check(db, where) : create(db, where);
            db.commit();
            return key;
        } catch (SQLException | StoreException | RuntimeException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(true);
        }
    }

    private static byte[] check(Connection db, String where) throws SQLException, StoreException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT application, schema_version, cursor_key FROM provider_meta")) {
            if (!rs.next()) {
                throw new StoreException(where + ": the database is damaged (provider_meta is empty)");
            }
            String application = rs.getString(1);
            int version = rs.getInt(2);
            if (!APPLICATION.equals(application)) {
                throw new StoreException(where + ": the database holds another application's provider_meta (\""
                        + application + "\"); refusing to touch it");
            }
            if (version > VERSION) {
                throw new StoreException(where + ": schema version " + version + " is newer than this provider"
                        + " supports (" + VERSION + "); upgrade the provider");
            }
            // versions below VERSION would be upgraded here, in this transaction, as the SQLite store does
            return rs.getBytes(3);
        }
    }

    private static byte[] create(Connection db, String where) throws SQLException, StoreException {
        for (String table : List.of("machines", "fence_marks", "leader_lease")) {
            if (tableExists(db, table)) {
                throw new StoreException(where + ": the database has a table \"" + table
                        + "\" but is not a provider state database; refusing to touch it");
            }
        }
        try (Statement st = db.createStatement()) {
            for (String statement : statements()) {
                st.execute(statement);
            }
        }
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try (PreparedStatement st = db.prepareStatement("INSERT INTO provider_meta (id, application, schema_version,"
                + " cursor_key, revision, last_operation_number, change_seq, changed_at)"
                + " VALUES (1, ?, ?, ?, 0, 0, 0, clock_timestamp())")) {
            st.setString(1, APPLICATION);
            st.setInt(2, VERSION);
            st.setBytes(3, key);
            st.executeUpdate();
        }
        LoggerFactory.getLogger(PostgresSchema.class).info("{}: created the state schema, version {}", where, VERSION);
        return key;
    }

    private static boolean tableExists(Connection db, String table) throws SQLException {
        try (PreparedStatement st = db.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            st.setString(1, table);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static List<String> statements() {
        return SchemaScript.statements(PostgresSchema.class, "schema.sql");
    }
}
