package dev.bigfleet.proxmox.engine.store;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** No durability: everything lives in the engine's memory and is lost on restart. */
public final class InMemoryStateStore implements StateStore {
    private final byte[] cursorKey = new byte[32];
    /** Each machine's operations, newest first; each list is immutable, replaced on every record. */
    private final Map<String, List<OperationRecord>> operations = new ConcurrentHashMap<>();

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
        if (write.operation() != null) {
            operations.compute(write.machine().id(), (id, history) -> record(history, write.operation()));
        }
        if (write.deletedMachineId() != null) {
            operations.remove(write.deletedMachineId());
        }
        write.afterDurable().run();
        return CompletableFuture.completedFuture(null);
    }

    /** {@code history} (newest first, immutable) with {@code op} recorded: replaced in place, or added first. */
    private static List<OperationRecord> record(List<OperationRecord> history, OperationRecord op) {
        List<OperationRecord> out = new ArrayList<>(history == null ? List.of() : history);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i).operationId().equals(op.operationId())) {
                out.set(i, op.over(out.get(i)));
                return List.copyOf(out);
            }
        }
        out.add(0, op);
        return List.copyOf(out.subList(0, Math.min(out.size(), OperationRecord.KEPT_PER_MACHINE)));
    }

    @Override
    public List<OperationRecord> operations(String machineId) {
        return operations.getOrDefault(machineId, List.of());
    }

    @Override
    public boolean isDurable() {
        return false;
    }

    @Override
    public void close() {}
}
