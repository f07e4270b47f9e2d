package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.OperationContext;
import dev.failsafe.Bulkhead;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A bulkhead per copying node (the node that holds the template and runs the clone task): at most
 * {@code --max-concurrent-clones-per-node} full clones copy on one node at a time, so a burst of
 * Creates does not saturate its storage. Waiting for a slot is bounded by the transition's
 * deadline. Linked clones copy nothing and take no slot.
 */
final class CloneSlots {
    /** A held slot; closing it gives it back. */
    interface Permit extends AutoCloseable {
        @Override
        void close();
    }

    /** No slot (a linked clone). */
    static final Permit NONE = () -> {};

    private final int perNode;
    private final Map<String, Bulkhead<Object>> nodes = new ConcurrentHashMap<>();

    CloneSlots(int perNode) {
        this.perNode = perNode;
    }

    Permit acquire(String node, OperationContext context) throws BackendException {
        Bulkhead<Object> bulkhead = nodes.computeIfAbsent(node, n -> Bulkhead.of(perNode));
        boolean acquired;
        try {
            acquired = bulkhead.tryAcquirePermit(context.remaining());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            context.checkCancelled();
            acquired = false;
        }
        if (!acquired) {
            throw new BackendException("no clone slot free on node " + node + " before the transition deadline ("
                    + perNode + " full clones already copying there; --max-concurrent-clones-per-node)");
        }
        return bulkhead::releasePermit;
    }
}
