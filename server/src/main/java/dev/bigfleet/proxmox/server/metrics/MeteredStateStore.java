package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Times every write of any {@link StateStore} from queueing to durable, and counts the writes
 * that fail, without the store knowing about metrics.
 */
public final class MeteredStateStore implements StateStore {
    private final StateStore store;
    private final StoreMetrics metrics;

    public MeteredStateStore(StateStore store, StoreMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public Optional<StoredCounters> load(Consumer<StoredMachine> restore) throws StoreException {
        return store.load(restore);
    }

    @Override
    public byte[] cursorKey() {
        return store.cursorKey();
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the callback only measures; the caller gets the write's own future
    @Override
    public CompletableFuture<Void> write(StoreWrite write) {
        long start = System.nanoTime();
        CompletableFuture<Void> done;
        try {
            done = store.write(write);
        } catch (RuntimeException e) {
            metrics.failed();
            throw e;
        }
        done.whenComplete((ok, error) -> {
            if (error == null) {
                metrics.committed(Duration.ofNanos(System.nanoTime() - start));
            } else {
                metrics.failed();
            }
        });
        return done;
    }

    @Override
    public List<OperationRecord> operations(String machineId) throws StoreException {
        return store.operations(machineId);
    }

    @Override
    public boolean isDurable() {
        return store.isDurable();
    }

    @Override
    public void close() {
        store.close();
    }
}
