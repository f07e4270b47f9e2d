package dev.bigfleet.proxmox.store.sqlite;

import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
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

/**
 * The durable state: an SQLite database (WAL journal, {@code synchronous=FULL}) with one row per
 * machine and per fence mark, checked and locked on open ({@link StateFile}, {@link StateFileLock}).
 * One thread first reads the file ({@link JournalReader}) while the rest of startup goes on, then
 * group-commits every write ({@link GroupCommitWriter}); changes are appended to a journal that is
 * folded into the tables ({@link JournalFold}). Operation histories are read on demand ({@link
 * HistoryReader}).
 */
public final class SqliteStateStore implements StateStore {
    private static final Logger log = LoggerFactory.getLogger(SqliteStateStore.class);
    /** Follows the last batch in {@link #opened}; {@link #readEnd} then holds the counters or the failure. */
    private static final List<StoredMachine> END_OF_FILE = Collections.unmodifiableList(new ArrayList<>());

    private final Path path;
    private final StateFileLock lock;
    private final Connection db;
    private final byte[] cursorKey;
    /** What the file held when it was opened: batches of machines read before the first write. */
    private final BlockingQueue<List<StoredMachine>> opened = new LinkedBlockingQueue<>();

    private final CompletableFuture<Optional<StoredCounters>> readEnd = new CompletableFuture<>();
    private final AtomicBoolean loadTaken = new AtomicBoolean();
    /** Completes durable writes, so the writer never runs what waits on them. */
    private final ExecutorService completer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "state-completer");
        t.setDaemon(true);
        return t;
    });

    private final GroupCommitWriter writer;
    private final HistoryReader history;
    private final Thread writerThread;
    private volatile boolean closed;

    private SqliteStateStore(Path path, StateFileLock lock, Connection db, byte[] cursorKey) {
        this.path = path;
        this.lock = lock;
        this.db = db;
        this.cursorKey = cursorKey;
        this.writer = new GroupCommitWriter(db, completer);
        this.history = new HistoryReader(path);
        this.writerThread = new Thread(this::readThenWrite, "state-writer");
        this.writerThread.setDaemon(true);
        this.writerThread.start();
    }

    /**
     * Opens (or creates) the state database. A file that is not ours, is damaged or has a newer
     * schema is refused and left exactly as it was.
     */
    public static SqliteStateStore open(Path path) throws StoreException {
        StateFile.createParent(path);
        StateFileLock lock = StateFileLock.acquire(path);
        try {
            boolean existing = StateFile.prepare(path);
            Connection db = StateFile.openForWriting(path);
            if (existing) {
                StateSchema.upgrade(db, path);
            } else {
                StateSchema.create(db);
            }
            return new SqliteStateStore(path, lock, db, StateSchema.cursorKey(db, path));
        } catch (IOException | SQLException e) {
            lock.close();
            throw new StoreException("--state " + path + ": cannot open: " + oneLine(e), e);
        } catch (StoreException e) {
            lock.close();
            throw e;
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

    /** The writer thread: the file is read first, so the rest of startup runs alongside the read. */
    private void readThenWrite() {
        try {
            readEnd.complete(new JournalReader(db, path, opened).read());
        } catch (StoreException | RuntimeException e) {
            readEnd.completeExceptionally(e);
        } catch (InterruptedException e) {
            readEnd.completeExceptionally(e);
            Thread.currentThread().interrupt(); // the writer below then stops at once
        } finally {
            opened.add(END_OF_FILE);
        }
        writer.run();
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
        writer.enqueue(new GroupCommitWriter.Pending(write, durable));
        return durable;
    }

    @Override
    public List<OperationRecord> operations(String machineId) throws StoreException {
        return history.read(machineId);
    }

    @Override
    public boolean isDurable() {
        return true;
    }

    /** Finishes the writes already queued, then closes the database and releases the lock. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writer.stop();
        try {
            writerThread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writerThread.interrupt();
        completer.shutdown();
        try {
            if (!completer.awaitTermination(10, TimeUnit.SECONDS)) {
                log.warn("state store completions did not finish within 10s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            history.close();
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
