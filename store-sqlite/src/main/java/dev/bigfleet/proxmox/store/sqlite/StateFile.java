package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The state file on disk: creating it (mode 0600, parent directories made), checking an existing one
 * without writing a byte to it (SQLite header, application id, schema version, integrity), and
 * opening the connection the store writes through.
 */
final class StateFile {
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private StateFile() {}

    /** Creates the parent directory when missing. */
    static void createParent(Path path) throws StoreException {
        Path parent = path.toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new StoreException("--state " + path + ": cannot create directory " + parent + ": " + e.getMessage());
        }
    }

    /**
     * Whether the file already holds a database; a missing file is created empty with mode 0600 and
     * an existing one is checked, read-only.
     */
    static boolean prepare(Path path) throws StoreException, IOException {
        boolean existing = Files.exists(path) && Files.size(path) > 0;
        if (existing) {
            verifyReadOnly(path);
        } else if (!Files.exists(path)) {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        return existing;
    }

    /** The connection the store writes through, in WAL mode with {@code synchronous=FULL}. */
    static Connection openForWriting(Path path) throws SQLException {
        Connection db = connect(path, false);
        try (Statement st = db.createStatement()) {
            st.execute("PRAGMA journal_mode=WAL");
            st.execute("PRAGMA synchronous=FULL");
            st.execute("PRAGMA foreign_keys=OFF");
            // the whole 100k-machine table fits in cache; checkpoint less often so commits stay small
            st.execute("PRAGMA cache_size=-131072");
            st.execute("PRAGMA wal_autocheckpoint=10000");
        }
        return db;
    }

    /** A read-only connection for reads beside the writer's (WAL mode lets them run alongside). */
    static Connection openForReading(Path path) throws SQLException {
        return connect(path, true);
    }

    private static Connection connect(Path path, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        // no generated-keys lookup after every write: it prepares and runs a query per row
        config.setGetGeneratedKeys(false);
        config.setOpenMode(readOnly ? SQLiteOpenMode.READONLY : SQLiteOpenMode.READWRITE);
        if (readOnly) {
            config.setReadOnly(true);
        }
        return DriverManager.getConnection("jdbc:sqlite:" + path.toAbsolutePath(), config.toProperties());
    }

    /** Checks an existing file without writing a byte to it. */
    private static void verifyReadOnly(Path path) throws StoreException, IOException {
        byte[] header = new byte[SQLITE_HEADER.length];
        int read;
        try (InputStream in = Files.newInputStream(path)) {
            read = in.readNBytes(header, 0, header.length);
        }
        if (read < header.length || !Arrays.equals(header, SQLITE_HEADER)) {
            throw new StoreException("--state " + path + ": not a provider state database (no SQLite header);"
                    + " refusing to touch it");
        }
        try (Connection ro = connect(path, true);
                Statement st = ro.createStatement()) {
            int app = intPragma(st, "application_id");
            if (app != StateSchema.APPLICATION_ID) {
                throw new StoreException("--state " + path + ": an SQLite database, but not a provider state"
                        + " database (application_id " + app + "); refusing to touch it");
            }
            int version = intPragma(st, "user_version");
            if (version > StateSchema.VERSION) {
                throw new StoreException("--state " + path + ": schema version " + version + " is newer than this"
                        + " provider supports (" + StateSchema.VERSION + "); upgrade the provider");
            }
            try (ResultSet rs = st.executeQuery("PRAGMA quick_check")) {
                String result = rs.next() ? rs.getString(1) : "no answer";
                if (!"ok".equals(result)) {
                    String first = result.replace('\n', ' ');
                    throw new StoreException("--state " + path + ": the database is damaged ("
                            + (first.length() > 200 ? first.substring(0, 200) + "…" : first) + ")");
                }
            }
        } catch (SQLException e) {
            throw new StoreException(
                    "--state " + path + ": the database is damaged or truncated: " + SqliteStateStore.oneLine(e));
        }
    }

    private static int intPragma(Statement st, String pragma) throws SQLException {
        try (ResultSet rs = st.executeQuery("PRAGMA " + pragma)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }
}
