package dev.bigfleet.proxmox.engine;

import java.util.concurrent.CompletableFuture;

/**
 * Runs one machine's changes one after another, each until the future it returns completes
 * (until its write is durable), without holding a thread while it waits: the next change starts
 * on whichever thread completes the previous one, or at once on the caller's thread when nothing
 * is pending. It is the machine's lock for work that ends asynchronously.
 */
final class ChangeSequence {
    /** One change: reads and updates the machine, and returns when it is done. */
    @FunctionalInterface
    interface Change<T> {
        CompletableFuture<T> run() throws Exception;
    }

    /** Shared by every sequence with nothing pending yet: 100,000 machines need no 100,000 of them. */
    private static final CompletableFuture<Void> NOTHING_PENDING = CompletableFuture.completedFuture(null);

    private CompletableFuture<?> tail = NOTHING_PENDING;

    /**
     * Runs {@code change} after every change submitted before it has finished, whether that one
     * succeeded or not. The result fails with a {@link java.util.concurrent.CompletionException}
     * around whatever the change threw or failed with.
     */
    <T> CompletableFuture<T> then(Change<T> change) {
        synchronized (this) {
            // run inside the monitor when nothing is pending, so concurrent callers take turns
            CompletableFuture<T> result = tail.handle((ignored, error) -> null).thenCompose(ignored -> start(change));
            tail = result;
            return result;
        }
    }

    private static <T> CompletableFuture<T> start(Change<T> change) {
        try {
            return change.run();
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
