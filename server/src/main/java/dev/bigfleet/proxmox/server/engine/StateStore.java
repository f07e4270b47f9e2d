package dev.bigfleet.proxmox.server.engine;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where accepted changes become durable. The engine acknowledges a change, and shows it to
 * readers, only once its write has completed.
 */
public interface StateStore extends AutoCloseable {
    /** Everything stored, or empty when the store is fresh. */
    Optional<StoredState> load() throws StoreException;

    /** The key that signs List cursors; stable across restarts for a durable store. */
    byte[] cursorKey();

    /**
     * Queues a write. Writes become durable in the order they were queued; each write's
     * {@link StoreWrite#afterDurable()} runs, in that order, before its future completes.
     */
    CompletableFuture<Void> write(StoreWrite write);

    /** Whether changes survive a restart, for the startup log line. */
    boolean isDurable();

    @Override
    void close();
}
