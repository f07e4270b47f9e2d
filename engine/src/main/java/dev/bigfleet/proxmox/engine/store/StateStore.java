package dev.bigfleet.proxmox.engine.store;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Where accepted changes become durable. The engine acknowledges a change, and shows it to
 * readers, only once its write has completed.
 */
public interface StateStore extends AutoCloseable {
    /**
     * Hands what the store held when it was opened to {@code restore}, one machine at a time, in
     * no particular order and on the calling thread (a durable store reads its file on another
     * thread meanwhile). Called once, before the first write.
     *
     * @return the stored counters, or empty when the store is fresh
     */
    Optional<StoredCounters> load(Consumer<StoredMachine> restore) throws StoreException;

    /** The key that signs List cursors; stable across restarts for a durable store. */
    byte[] cursorKey();

    /**
     * Queues a write. Writes become durable in the order they were queued; each write's
     * {@link StoreWrite#afterDurable()} runs, in that order, before its future completes.
     */
    CompletableFuture<Void> write(StoreWrite write);

    /**
     * A machine's recent operations, newest (last accepted) first, at most {@link
     * OperationRecord#KEPT_PER_MACHINE}: what the {@link StoreWrite#operation() operations} of its
     * durable writes recorded, one record per operation id. A later record of an operation replaces
     * the earlier one, keeping the earlier start when the later has none ({@link
     * OperationRecord#over}). A durable store keeps them across restarts; a machine it removed has
     * none. Read on demand (the admin page's machine view), so a restart does not load them.
     */
    List<OperationRecord> operations(String machineId) throws StoreException;

    /** Whether changes survive a restart, for the startup log line. */
    boolean isDurable();

    @Override
    void close();
}
