package dev.bigfleet.proxmox.engine.store;

import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/** No durability: everything lives in the engine's memory and is lost on restart. */
public final class InMemoryStateStore implements StateStore {
    private final byte[] cursorKey = new byte[32];

    public InMemoryStateStore() {
        new SecureRandom().nextBytes(cursorKey);
    }

    @Override
    public Optional<StoredCounters> load(Consumer<StoredMachine> restore) {
        return Optional.empty();
    }

    @Override
    public byte[] cursorKey() {
        return cursorKey.clone();
    }

    @Override
    public CompletableFuture<Void> write(StoreWrite write) {
        write.afterDurable().run();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public boolean isDurable() {
        return false;
    }

    @Override
    public void close() {}
}
