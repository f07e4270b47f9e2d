package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * The database's schema ({@code schema.sql}), its version and the mark that the file is ours, and the
 * key that signs List cursors, minted once with the file.
 */
final class StateSchema {
    static final int VERSION = 1;
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

    static byte[] cursorKey(Connection db, Path path) throws SQLException, StoreException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'cursor_key'")) {
            if (!rs.next()) {
                throw new StoreException("--state " + path + ": the database is damaged (no cursor key)");
            }
            return rs.getBytes(1);
        }
    }

    /** The statements of {@code schema.sql}, without its comment lines. */
    private static List<String> statements() {
        String sql;
        try (InputStream in = StateSchema.class.getResourceAsStream("schema.sql")) {
            if (in == null) {
                throw new IllegalStateException("schema.sql is missing from the store's jar");
            }
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String withoutComments = String.join("\n", sql.lines().filter(l -> !l.startsWith("--")).toList());
        return Arrays.stream(withoutComments.split("\n;\n?"))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
