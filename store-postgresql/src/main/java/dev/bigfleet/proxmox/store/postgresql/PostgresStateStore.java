package dev.bigfleet.proxmox.store.postgresql;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import dev.bigfleet.proxmox.engine.store.LeaderLease;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.SharedStateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared state on PostgreSQL: the same semantics as the SQLite store (a change is acknowledged
 * and visible only once committed, group commit, the schema created and versioned here, fence
 * marks and operation ids kept), for replicas that share one database. The leader writes through
 * the {@link FencedWriter}; standbys follow its commits ({@link PostgresReader}); the
 * {@link PostgresLease} says which replica leads. Connections come from a HikariCP pool.
 */
public final class PostgresStateStore implements SharedStateStore {
    private static final Logger log = LoggerFactory.getLogger(PostgresStateStore.class);
    private static final int POOL_SIZE = 4;

    private final String where;
    private final HikariDataSource pool;
    private final byte[] cursorKey;
    private final PostgresReader reader;
    private final PostgresLease lease;
    private final ExecutorService completer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "state-completer");
        t.setDaemon(true);
        return t;
    });
    private final FencedWriter writer;
    private final Thread writerThread;
    private final AtomicBoolean loadTaken = new AtomicBoolean();
    private final Object followLock = new Object();
    /** The change_seq this replica's view has reached. */
    private long position;
    /** When the previous follow began: changes found now were committed after it. */
    private long previousFollowNanos = System.nanoTime();

    private volatile double lagSeconds;
    private volatile boolean closed;

    private PostgresStateStore(String where, HikariDataSource pool, byte[] cursorKey) {
        this.where = where;
        this.pool = pool;
        this.cursorKey = cursorKey;
        this.reader = new PostgresReader(pool);
        this.lease = new PostgresLease(pool, where);
        this.writer = new FencedWriter(pool, where, completer);
        this.writerThread = new Thread(writer::run, "state-writer");
        this.writerThread.setDaemon(true);
        this.writerThread.start();
    }

    /**
     * Connects, and creates the schema in an empty database or checks the existing one. A database
     * that is not a provider's, or has a newer schema, is refused and left as it was.
     */
    public static PostgresStateStore open(PostgresTarget target) throws StoreException {
        String where = "--state " + target.description();
        HikariConfig config = new HikariConfig();
        config.setPoolName("state");
        config.setJdbcUrl(target.jdbcUrl());
        config.setUsername(target.user());
        config.setPassword(target.password());
        config.setMaximumPoolSize(POOL_SIZE);
        config.setMinimumIdle(2);
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(1);
        config.addDataSourceProperty("reWriteBatchedInserts", "true");
        config.addDataSourceProperty("ApplicationName", "bigfleet-proxmox");
        config.addDataSourceProperty("tcpKeepAlive", "true");
        // a leader frozen inside a write holds the lease row's lock: the database ends that session
        config.setConnectionInitSql("SET idle_in_transaction_session_timeout = "
                + Math.max(1_000, target.writeTimeout().toMillis()));
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config);
        } catch (HikariPool.PoolInitializationException e) {
            throw new StoreException(where + ": cannot connect: " + PostgresLease.oneLine(rootCause(e)), e);
        }
        try (Connection db = pool.getConnection()) {
            byte[] key = PostgresSchema.ensure(db, where);
            return new PostgresStateStore(where, pool, key);
        } catch (SQLException e) {
            pool.close();
            throw new StoreException(where + ": cannot open: " + PostgresLease.oneLine(e), e);
        } catch (StoreException | RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    @Override
    public Optional<StoredCounters> load(Consumer<StoredMachine> restore) throws StoreException {
        if (loadTaken.getAndSet(true)) {
            throw new IllegalStateException("load() is called once");
        }
        try {
            synchronized (followLock) {
                PostgresReader.Snapshot snapshot = reader.loadAll(restore);
                position = snapshot.position();
                previousFollowNanos = System.nanoTime();
                if (snapshot.machines() == 0 && snapshot.counters().revision() == 0) {
                    return Optional.empty();
                }
                return Optional.of(snapshot.counters());
            }
        } catch (SQLException e) {
            throw new StoreException(where + ": cannot read: " + PostgresLease.oneLine(e), e);
        }
    }

    @Override
    public int follow(StoreFollower follower) throws StoreException {
        try {
            synchronized (followLock) {
                long started = System.nanoTime();
                PostgresReader.Snapshot snapshot = reader.changedAfter(position, follower);
                if (snapshot.position() > position) {
                    // each change found was committed after the previous look: this is how late it can be
                    lagSeconds = (System.nanoTime() - previousFollowNanos) / 1e9;
                } else {
                    lagSeconds = 0;
                }
                position = snapshot.position();
                previousFollowNanos = started;
                return snapshot.machines();
            }
        } catch (SQLException e) {
            throw new StoreException(where + ": cannot follow the leader's changes: " + PostgresLease.oneLine(e), e);
        }
    }

    @Override
    public void followFromStart() {
        synchronized (followLock) {
            position = 0;
        }
    }

    @Override
    public double followLagSeconds() {
        return lagSeconds;
    }

    @Override
    public LeaderLease lease() {
        return lease;
    }

    @Override
    public void lead(long epoch, Runnable onDeposed) {
        writer.lead(epoch, onDeposed);
    }

    @Override
    public void stopLeading() {
        writer.stopLeading();
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
        writer.enqueue(new FencedWriter.Pending(write, durable));
        return durable;
    }

    @Override
    public List<OperationRecord> operations(String machineId) throws StoreException {
        try (Connection db = pool.getConnection()) {
            return OperationHistory.read(db, machineId);
        } catch (SQLException e) {
            throw new StoreException(
                    where + ": cannot read the operations of " + machineId + ": " + PostgresLease.oneLine(e), e);
        }
    }

    @Override
    public boolean isDurable() {
        return true;
    }

    /** Finishes the writes already queued, then closes the pool. */
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
        pool.close();
    }
}
