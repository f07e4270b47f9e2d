package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.SlotMachineId;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cleans up FAILED machines once their retention has ended, so a failure never takes a slot away for
 * good: the machine's VMs are destroyed (a bound machine's drained first), then the FAILED machine
 * leaves the inventory and its slot is offered again by a new SPECULATIVE machine with the slot's
 * next id ({@link SlotMachineId}), in one durable write. A FAILED machine never changes state in
 * place: the BigFleet shard has no edge out of Failed, and drops a record that leaves a full List
 * while it inserts a new id. A slot no offering renders any more, or one a newer machine already
 * holds, is not offered again. A cleanup that fails leaves the machine FAILED with the cleanup's error
 * appended and is tried again later, waiting longer each time; its state is kept with the machine,
 * so it goes on after a restart.
 */
final class FailureRecovery {
    private static final Logger log = LoggerFactory.getLogger(FailureRecovery.class);

    private final MachineTable table;
    private final FailureCleanupWork work;
    private final RecoveryPolicy policy;
    private final TransitionTimeouts timeouts;
    private final ExecutorService workers;
    private final OfferedSlots offeredSlots;
    private final Set<String> cleaning = ConcurrentHashMap.newKeySet();

    FailureRecovery(
            MachineTable table,
            FailureCleanupWork work,
            RecoveryPolicy policy,
            TransitionTimeouts timeouts,
            ExecutorService workers,
            OfferedSlots offeredSlots) {
        this.table = table;
        this.work = work;
        this.policy = policy;
        this.timeouts = timeouts;
        this.workers = workers;
        this.offeredSlots = offeredSlots;
    }

    /** Starts the cleanup of every FAILED machine that is due; returns how many started. */
    int cleanUpDue(Instant now) {
        if (!policy.enabled()) {
            return 0;
        }
        int started = 0;
        for (MachineEntry entry : table.entries()) {
            Machine m = entry.snapshot();
            FailureRecord failure = entry.failure();
            if (m.state() != MachineState.FAILED
                    || failure == null
                    || !table.isVisible(entry)
                    || now.isBefore(failure.failedAt().plus(policy.retention()))
                    || now.isBefore(failure.cleanupNotBefore())
                    || !cleaning.add(m.id())) {
                continue;
            }
            try {
                workers.execute(() -> cleanUp(entry, m, failure));
                started++;
            } catch (RejectedExecutionException stopping) {
                cleaning.remove(m.id());
                return started;
            }
        }
        return started;
    }

    /** FAILED machines whose VM may be a live node and whose drain has failed: an operator should look. */
    int needingAttention() {
        int n = 0;
        for (MachineEntry entry : table.entries()) {
            FailureRecord failure = entry.failure();
            if (failure != null && failure.needsAttention() && entry.snapshot().state() == MachineState.FAILED) {
                n++;
            }
        }
        return n;
    }

    private void cleanUp(MachineEntry entry, Machine m, FailureRecord failure) {
        Instant deadline =
                Instant.now().plus(timeouts.of(TransitionKind.DRAIN)).plus(timeouts.of(TransitionKind.DELETE));
        TransitionContext context =
                new TransitionContext(m.id(), "cleanup-" + (failure.cleanupAttempts() + 1), deadline);
        try {
            work.clean(m, failure, graceOf(entry, failure), context);
            settle(entry, failure, null);
        } catch (BackendException | RuntimeException e) {
            settle(entry, failure, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } finally {
            context.cancel();
            cleaning.remove(m.id());
        }
    }

    private long graceOf(MachineEntry entry, FailureRecord failure) {
        LastOperation last = entry.lastOperation();
        boolean drained = failure.kind() == TransitionKind.DRAIN && last != null && last.kind() == TransitionKind.DRAIN;
        return drained ? last.graceSeconds() : policy.redrainGraceSeconds();
    }

    /**
     * The cleaned-up machine leaves the inventory; its slot's next machine takes its place, unless no
     * offering renders the slot or a newer machine already holds it.
     */
    private CompletableFuture<Void> retire(MachineEntry entry, Machine failed, FailureRecord failure) {
        Optional<SlotMachineId> successor = successorOf(failed.id());
        CompletableFuture<Boolean> change = successor.isPresent()
                ? table.replace(entry, fresh(failed, successor.get().machineId()))
                : table.retire(entry).thenApply(done -> true);
        return change.thenAccept(replaced -> {
            if (!replaced) {
                // the successor's id is taken (it cannot be, but a slot is never offered twice): retired later
                log.warn("machine {} was cleaned up, but its slot's next id is taken; it stays FAILED", failed.id());
                return;
            }
            log.info(
                    "machine {} recovered: failed in {} ({}); {}",
                    failed.id(),
                    failure.kind().label(),
                    failure.bound() ? "drained and destroyed" : "destroyed",
                    successor
                            .map(next -> "its slot is offered again as " + next.machineId())
                            .orElse("its slot is not offered any more"));
            table.observer().failedRecovered(failure.kind());
        });
    }

    /** The slot's next machine, if the slot is offered and {@code failedId} still holds it. */
    private Optional<SlotMachineId> successorOf(String failedId) {
        Optional<SlotMachineId> me = SlotMachineId.parse(failedId);
        if (me.isEmpty() || !offeredSlots.offers(me.get().slotId())) {
            return Optional.empty();
        }
        return SlotHolders.of(table.ids()).isSuperseded(me.get())
                ? Optional.empty()
                : Optional.of(me.get().next());
    }

    /** A new SPECULATIVE machine of the slot {@code failed} held, with the slot's facts. */
    private static Machine fresh(Machine failed, String id) {
        return failed.toBuilder()
                .id(id)
                .state(MachineState.SPECULATIVE)
                .host(HostRef.NONE)
                .cluster("")
                .shardMetadata(Map.of())
                .lastError("")
                .build();
    }

    /** Records the cleanup's outcome, unless the machine changed meanwhile. */
    @SuppressWarnings("FutureReturnValueIgnored") // the chain ends in a callback that logs its failure
    private void settle(MachineEntry entry, FailureRecord failure, String error) {
        entry.changes
                .then(() -> {
                    Machine current = entry.snapshot();
                    if (current.state() != MachineState.FAILED
                            || !Objects.equals(entry.failure(), failure)
                            || !table.isVisible(entry)) {
                        return CompletableFuture.completedFuture(null);
                    }
                    if (error == null) {
                        return retire(entry, current, failure);
                    }
                    FailureRecord next = failure.afterFailedCleanup(
                            Instant.now().plus(policy.backoff(failure.cleanupAttempts() + 1)));
                    entry.failure(next);
                    String lastError =
                            failure.error() + "; cleanup attempt " + next.cleanupAttempts() + " failed: " + error;
                    log.warn(
                            "cleanup of FAILED machine {} failed (attempt {}, next not before {}): {}",
                            current.id(),
                            next.cleanupAttempts(),
                            next.cleanupNotBefore(),
                            error);
                    return table.commit(
                                    entry,
                                    current.toBuilder().lastError(lastError).build(),
                                    List.of())
                            .handle((ok, e) -> {
                                if (e != null) {
                                    entry.failure(failure);
                                    throw e instanceof CompletionException c ? c : new CompletionException(e);
                                }
                                return null;
                            });
                })
                .whenComplete((done, e) -> {
                    if (e != null) {
                        log.error(
                                "recording the cleanup of machine {} failed: {}",
                                entry.snapshot().id(),
                                Failures.unwrap(e).getMessage());
                    }
                });
    }
}
