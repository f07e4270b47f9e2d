package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * The durable state: an SQLite database (WAL journal, {@code synchronous=FULL}) with one row per
 * machine and per fence mark. A single writer thread takes every write queued since its last
 * commit and commits them as one transaction, so many concurrent changes share one fsync. Each
 * change is appended to a journal table (a commit then writes a few sequential pages, not one page
 * per machine touched); the journal is folded into the machine and mark tables in the background
 * and replayed on load.
 */
public final class SqliteStateStore implements StateStore {
    private static final Logger log = LoggerFactory.getLogger(SqliteStateStore.class);
    static final int SCHEMA_VERSION = 1;
    /** "BFPX" in the database header: marks a file as ours. */
    static final int APPLICATION_ID = 0x42465058;
    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int MAX_BATCH = 4096;
    /** Journal rows that trigger a fold even while writes keep coming. */
    static final long FOLD_AT = 100_000;
    /** Journal rows folded once the writer has had nothing to do for {@link #IDLE_BEFORE_FOLD}. */
    static final long FOLD_WHEN_IDLE_AT = 10_000;
    /**
     * A fold takes about a second per 100,000 rows and holds back every write queued meanwhile;
     * waiting for a quiet second keeps it out of bursts, such as the writes of a restart.
     */
    static final Duration IDLE_BEFORE_FOLD = Duration.ofSeconds(1);
    /** Machines handed from the reading writer to {@link #load} at a time. */
    private static final int LOAD_BATCH = 1024;
    /** Follows the last batch in {@link #opened}; {@link #readEnd} then holds the counters or the failure. */
    private static final List<StoredMachine> END_OF_FILE = Collections.unmodifiableList(new ArrayList<>());

    private final Path path;
    private final StateFileLock lock;
    private final Connection db;
    private final byte[] cursorKey;
    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    /** What the file held when it was opened: batches of machines read by the writer before its first write. */
    private final BlockingQueue<List<StoredMachine>> opened = new LinkedBlockingQueue<>();
    private final CompletableFuture<Optional<StoredCounters>> readEnd = new CompletableFuture<>();
    private final AtomicBoolean loadTaken = new AtomicBoolean();
    private final Thread writer;
    /** Completes durable writes, so the writer never runs what waits on them. */
    private final ExecutorService completer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "state-completer");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;

    private record Pending(StoreWrite write, CompletableFuture<Void> durable) {}

    private static FenceMark higher(FenceMark a, FenceMark b) {
        return b.epoch() > a.epoch() || (b.epoch() == a.epoch() && b.sequence() > a.sequence()) ? b : a;
    }

    private SqliteStateStore(Path path, StateFileLock lock, Connection db, byte[] cursorKey) {
        this.path = path;
        this.lock = lock;
        this.db = db;
        this.cursorKey = cursorKey;
        this.writer = new Thread(this::writeLoop, "state-writer");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    /**
     * Opens (or creates) the state database. A file that is not ours, is damaged or has a newer
     * schema is refused and left exactly as it was.
     */
    public static SqliteStateStore open(Path path) throws StoreException {
        Path parent = path.toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new StoreException("--state " + path + ": cannot create directory " + parent + ": " + e.getMessage());
        }
        StateFileLock lock = StateFileLock.acquire(path);
        try {
            boolean existing = Files.exists(path) && Files.size(path) > 0;
            if (existing) {
                verifyReadOnly(path);
            } else if (!Files.exists(path)) {
                Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Connection db = connect(path, false);
            try (Statement st = db.createStatement()) {
                st.execute("PRAGMA journal_mode=WAL");
                st.execute("PRAGMA synchronous=FULL");
                st.execute("PRAGMA foreign_keys=OFF");
                // the whole 100k-machine table fits in cache; checkpoint less often so commits stay small
                st.execute("PRAGMA cache_size=-131072");
                st.execute("PRAGMA wal_autocheckpoint=10000");
            }
            if (!existing) {
                createSchema(db);
            }
            return new SqliteStateStore(path, lock, db, readCursorKey(db, path));
        } catch (IOException | SQLException e) {
            lock.close();
            throw new StoreException("--state " + path + ": cannot open: " + oneLine(e), e);
        } catch (StoreException e) {
            lock.close();
            throw e;
        }
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
        try (Connection ro = connect(path, true); Statement st = ro.createStatement()) {
            int app = intPragma(st, "application_id");
            if (app != APPLICATION_ID) {
                throw new StoreException("--state " + path + ": an SQLite database, but not a provider state"
                        + " database (application_id " + app + "); refusing to touch it");
            }
            int version = intPragma(st, "user_version");
            if (version > SCHEMA_VERSION) {
                throw new StoreException("--state " + path + ": schema version " + version + " is newer than this"
                        + " provider supports (" + SCHEMA_VERSION + "); upgrade the provider");
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
            throw new StoreException("--state " + path + ": the database is damaged or truncated: " + oneLine(e));
        }
    }

    private static int intPragma(Statement st, String pragma) throws SQLException {
        try (ResultSet rs = st.executeQuery("PRAGMA " + pragma)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    private static void createSchema(Connection db) throws SQLException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        db.setAutoCommit(false);
        try (Statement st = db.createStatement()) {
            st.execute("CREATE TABLE machines (id TEXT PRIMARY KEY, revision INTEGER NOT NULL, state TEXT NOT NULL,"
                    + " host_provider TEXT NOT NULL, host_ref TEXT NOT NULL, instance_type TEXT NOT NULL,"
                    + " zone TEXT NOT NULL, capacity_type TEXT NOT NULL, price_per_hour REAL NOT NULL,"
                    + " interruption_probability REAL NOT NULL, resources TEXT NOT NULL, labels TEXT NOT NULL,"
                    + " allocatable TEXT NOT NULL, last_error TEXT NOT NULL, cluster TEXT NOT NULL,"
                    + " shard_metadata TEXT NOT NULL, last_op_kind TEXT, last_op_id TEXT, last_op_cluster TEXT)"
                    // clustered on the id: an update touches one B-tree, not a table and an index
                    + " WITHOUT ROWID");
            st.execute("CREATE TABLE fence_marks (machine_id TEXT NOT NULL, shard_id TEXT NOT NULL,"
                    + " epoch INTEGER NOT NULL, sequence INTEGER NOT NULL, PRIMARY KEY (machine_id, shard_id))"
                    + " WITHOUT ROWID");
            // Changes are appended here (sequential pages, a small commit) and folded into the
            // tables above in the background; updating rows in place would dirty one page per machine.
            st.execute("CREATE TABLE journal (seq INTEGER PRIMARY KEY, deleted INTEGER NOT NULL, id TEXT NOT NULL,"
                    + " revision INTEGER, state TEXT, host_provider TEXT, host_ref TEXT, instance_type TEXT, zone TEXT,"
                    + " capacity_type TEXT, price_per_hour REAL, interruption_probability REAL, resources TEXT,"
                    + " labels TEXT, allocatable TEXT, last_error TEXT, cluster TEXT, shard_metadata TEXT,"
                    + " last_op_kind TEXT, last_op_id TEXT, last_op_cluster TEXT)");
            st.execute("CREATE TABLE mark_journal (seq INTEGER PRIMARY KEY, machine_id TEXT NOT NULL,"
                    + " shard_id TEXT NOT NULL, epoch INTEGER NOT NULL, sequence INTEGER NOT NULL)");
            st.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL)");
            st.execute("INSERT INTO meta (key, value) VALUES ('revision', 0), ('last_operation_number', 0)");
            st.execute("PRAGMA application_id=" + APPLICATION_ID);
            st.execute("PRAGMA user_version=" + SCHEMA_VERSION);
        }
        try (PreparedStatement st = db.prepareStatement("INSERT INTO meta (key, value) VALUES ('cursor_key', ?)")) {
            st.setBytes(1, key);
            st.executeUpdate();
        }
        db.commit();
        db.setAutoCommit(true);
    }

    private static byte[] readCursorKey(Connection db, Path path) throws SQLException, StoreException {
        try (Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'cursor_key'")) {
            if (!rs.next()) {
                throw new StoreException("--state " + path + ": the database is damaged (no cursor key)");
            }
            return rs.getBytes(1);
        }
    }

    @Override
    public Optional<StoredCounters> load(Consumer<StoredMachine> restore) throws StoreException {
        if (loadTaken.getAndSet(true)) {
            throw new IllegalStateException("load() is called once");
        }
        try {
            while (true) {
                List<StoredMachine> batch = opened.take();
                if (batch == END_OF_FILE) {
                    return readEnd.join();
                }
                batch.forEach(restore);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("--state " + path + ": interrupted while loading", e);
        } catch (CompletionException e) {
            if (e.getCause() instanceof StoreException stored) {
                throw stored;
            }
            throw new StoreException("--state " + path + ": cannot read: " + oneLine(e.getCause()), e.getCause());
        }
    }

    /**
     * Reads what the file holds, each machine once, handing batches to {@link #load} as it goes:
     * the journal newest first (the first row of an id is its latest change), then the table
     * rows of machines the journal did not mention. A row that is not the one that counts costs
     * only its id.
     */
    private Optional<StoredCounters> read() throws StoreException, InterruptedException {
        try (Statement st = db.createStatement()) {
            long revision = metaLong(st, "revision");
            long lastOp = metaLong(st, "last_operation_number");
            Map<String, Map<String, FenceMark>> marks = readMarks(st);
            MachineRows rows = new MachineRows();
            Set<String> journaled = new HashSet<>();
            List<StoredMachine> batch = new ArrayList<>(LOAD_BATCH);
            long machines = 0;
            try (ResultSet rs = st.executeQuery(MachineRows.JOURNAL_NEWEST_FIRST)) {
                while (rs.next()) {
                    String id = MachineRows.id(rs);
                    if (journaled.add(id) && !MachineRows.isDeletion(rs)) {
                        batch = handOver(batch, stored(rows, rs, id, marks));
                        machines++;
                    }
                }
            }
            try (ResultSet rs = st.executeQuery(MachineRows.TABLE)) {
                while (rs.next()) {
                    String id = MachineRows.id(rs);
                    if (!journaled.contains(id)) {
                        batch = handOver(batch, stored(rows, rs, id, marks));
                        machines++;
                    }
                }
            }
            if (!batch.isEmpty()) {
                opened.put(batch);
            }
            if (machines == 0 && revision == 0) {
                return Optional.empty();
            }
            return Optional.of(new StoredCounters(revision, lastOp));
        } catch (SQLException e) {
            throw new StoreException("--state " + path + ": cannot read: " + oneLine(e), e);
        }
    }

    /** Adds {@code machine} to the batch; a full batch goes to the loading thread and a new one starts. */
    private List<StoredMachine> handOver(List<StoredMachine> batch, StoredMachine machine) throws InterruptedException {
        batch.add(machine);
        if (batch.size() < LOAD_BATCH) {
            return batch;
        }
        opened.put(batch);
        return new ArrayList<>(LOAD_BATCH);
    }

    private static StoredMachine stored(MachineRows rows, ResultSet rs, String id,
            Map<String, Map<String, FenceMark>> marks) throws SQLException {
        MachineRows.Row row = rows.read(rs, id);
        return new StoredMachine(row.machine(), row.revision(), row.lastOperation(), marks.getOrDefault(id, Map.of()));
    }

    /** The fence marks of the table, raised by any the journal holds. */
    private static Map<String, Map<String, FenceMark>> readMarks(Statement st) throws SQLException {
        Map<String, Map<String, FenceMark>> marks = new HashMap<>();
        try (ResultSet rs = st.executeQuery("SELECT machine_id, shard_id, epoch, sequence FROM fence_marks")) {
            while (rs.next()) {
                marks.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                        .put(rs.getString(2), new FenceMark(rs.getLong(3), rs.getLong(4)));
            }
        }
        try (ResultSet rs = st.executeQuery("SELECT machine_id, shard_id, epoch, sequence FROM mark_journal")) {
            while (rs.next()) {
                marks.computeIfAbsent(rs.getString(1), k -> new HashMap<>())
                        .merge(rs.getString(2), new FenceMark(rs.getLong(3), rs.getLong(4)), SqliteStateStore::higher);
            }
        }
        return marks;
    }

    private static long metaLong(Statement st, String key) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = '" + key + "'")) {
            if (!rs.next()) {
                throw new SQLException("meta entry \"" + key + "\" is missing");
            }
            return rs.getLong(1);
        }
    }

    @Override
    public byte[] cursorKey() {
        return cursorKey.clone();
    }

    @Override
    public CompletableFuture<Void> write(StoreWrite write) {
        CompletableFuture<Void> durable = new CompletableFuture<>();
        if (closed) {
            durable.completeExceptionally(new IllegalStateException("the state store is closed"));
            return durable;
        }
        queue.add(new Pending(write, durable));
        return durable;
    }

    @Override
    public boolean isDurable() {
        return true;
    }

    private void writeLoop() {
        // the file is read first, on this thread, so the rest of startup runs alongside the read
        try {
            readEnd.complete(read());
        } catch (StoreException | RuntimeException e) {
            readEnd.completeExceptionally(e);
        } catch (InterruptedException e) {
            readEnd.completeExceptionally(e);
            Thread.currentThread().interrupt(); // the loop below then stops at once
        } finally {
            opened.add(END_OF_FILE);
        }
        List<Pending> batch = new ArrayList<>();
        try (PreparedStatement append = db.prepareStatement(MachineRows.JOURNAL_APPEND);
                PreparedStatement mark = db.prepareStatement(
                        "INSERT INTO mark_journal (machine_id, shard_id, epoch, sequence) VALUES (?, ?, ?, ?)");
                PreparedStatement deletion = db.prepareStatement("INSERT INTO journal (deleted, id) VALUES (1, ?)");
                PreparedStatement meta = db.prepareStatement("UPDATE meta SET value = max(value, ?) WHERE key = ?")) {
            long journaled = count("journal") + count("mark_journal");
            while (true) {
                batch.clear();
                Pending first = journaled >= FOLD_WHEN_IDLE_AT
                        ? queue.poll(IDLE_BEFORE_FOLD.toMillis(), TimeUnit.MILLISECONDS)
                        : queue.take();
                if (first == null) {
                    fold();
                    journaled = 0;
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                journaled += commitBatch(batch, append, mark, deletion, meta);
                if (journaled >= FOLD_AT) {
                    fold();
                    journaled = 0;
                }
                if (closed && queue.isEmpty()) {
                    if (journaled > 0) {
                        fold(); // a graceful stop leaves a folded file, so the next start reads less
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            log.error("state writer stopped: {}", oneLine(e));
        } finally {
            failAll(new IllegalStateException("the state store is closed"));
        }
    }

    /** Commits one group of writes; returns how many journal rows it appended (0 if it failed). */
    private long commitBatch(List<Pending> batch, PreparedStatement append, PreparedStatement mark,
            PreparedStatement deletion, PreparedStatement meta) {
        long revision = 0;
        long lastOp = 0;
        long appended = 0;
        try {
            db.setAutoCommit(false);
            for (Pending p : batch) {
                StoreWrite w = p.write();
                if (w.machine() != null) {
                    MachineRows.bind(append, w.machine(), w.revision(), w.lastOperation());
                    append.executeUpdate();
                    appended++;
                }
                for (MarkWrite m : w.marks()) {
                    mark.setString(1, m.machineId());
                    mark.setString(2, m.shardId());
                    mark.setLong(3, m.mark().epoch());
                    mark.setLong(4, m.mark().sequence());
                    mark.executeUpdate();
                    appended++;
                }
                if (w.deletedMachineId() != null) {
                    deletion.setString(1, w.deletedMachineId());
                    deletion.executeUpdate();
                    appended++;
                }
                revision = Math.max(revision, w.revision());
                lastOp = Math.max(lastOp, w.lastOperationNumber());
            }
            updateMeta(meta, "revision", revision);
            updateMeta(meta, "last_operation_number", lastOp);
            db.commit();
        } catch (SQLException | RuntimeException e) {
            log.error("state store commit of {} changes failed: {}", batch.size(), oneLine(e));
            try {
                db.rollback();
            } catch (SQLException ignored) {
                // the connection is unusable; every later write fails too
            }
            List<Pending> failed = List.copyOf(batch);
            completer.execute(() -> failed.forEach(p -> p.durable().completeExceptionally(e)));
            return 0;
        }
        List<Pending> durable = List.copyOf(batch);
        completer.execute(() -> publish(durable));
        return appended;
    }

    /**
     * Runs on {@link #completer}, batch after batch in commit order: publishes each change and
     * completes its future, which runs whatever waits on it (answers to callers, the next step of
     * a machine), while the writer goes on with the next commit.
     */
    private static void publish(List<Pending> durable) {
        for (Pending p : durable) {
            try {
                p.write().afterDurable().run();
            } catch (RuntimeException e) {
                log.error("publishing a durable change failed", e);
            }
            p.durable().complete(null);
        }
    }

    private long count(String table) throws SQLException {
        try (Statement st = db.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    /**
     * Moves the latest journal entry of every machine and mark into the tables and empties the
     * journal, in one transaction: a crash in the middle leaves the journal as it was.
     */
    private void fold() {
        try (Statement st = db.createStatement()) {
            db.setAutoCommit(false);
            String latest = "seq IN (SELECT max(seq) FROM journal GROUP BY id)";
            st.executeUpdate(MachineRows.FOLD_UPSERT + " WHERE deleted = 0 AND " + latest + MachineRows.ON_CONFLICT_UPDATE);
            st.executeUpdate("DELETE FROM machines WHERE id IN (SELECT id FROM journal WHERE deleted = 1 AND " + latest + ")");
            st.executeUpdate("DELETE FROM fence_marks WHERE machine_id IN"
                    + " (SELECT id FROM journal WHERE deleted = 1 AND " + latest + ")");
            st.executeUpdate("INSERT INTO fence_marks (machine_id, shard_id, epoch, sequence)"
                    + " SELECT machine_id, shard_id, epoch, sequence FROM mark_journal"
                    + " WHERE seq IN (SELECT max(seq) FROM mark_journal GROUP BY machine_id, shard_id)"
                    + " ON CONFLICT (machine_id, shard_id) DO UPDATE SET epoch = excluded.epoch,"
                    + " sequence = excluded.sequence");
            st.executeUpdate("DELETE FROM journal");
            st.executeUpdate("DELETE FROM mark_journal");
            db.commit();
        } catch (SQLException e) {
            log.error("folding the state journal failed (it is kept and replayed on load): {}", oneLine(e));
            try {
                db.rollback();
            } catch (SQLException ignored) {
                // the next fold tries again
            }
        }
    }

    private static void updateMeta(PreparedStatement meta, String key, long value) throws SQLException {
        if (value > 0) {
            meta.setLong(1, value);
            meta.setString(2, key);
            meta.executeUpdate();
        }
    }

    private void failAll(Exception cause) {
        Pending p;
        while ((p = queue.poll()) != null) {
            p.durable().completeExceptionally(cause);
        }
    }

    /** Finishes the writes already queued, then closes the database and releases the lock. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // an empty marker write wakes the writer so it sees the flag after the last real write
        queue.add(new Pending(StoreWrite.marksOnlyNone(), new CompletableFuture<>()));
        try {
            writer.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.interrupt();
        completer.shutdown();
        try {
            if (!completer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("state store completions did not finish within 10s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            db.close();
        } catch (SQLException e) {
            log.warn("closing the state database failed: {}", oneLine(e));
        }
        lock.close();
    }

    static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.replace('\n', ' ');
    }
}
