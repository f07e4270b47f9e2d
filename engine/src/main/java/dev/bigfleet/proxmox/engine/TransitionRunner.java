package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.failsafe.Failsafe;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an accepted transition's backend work on a worker, within the kind's timeout, and applies its
 * outcome as the machine's next change, only if the machine is still in that operation's
 * transitional state (a late result is discarded).
 */
final class TransitionRunner {
    private static final Logger log = LoggerFactory.getLogger(TransitionRunner.class);

    private final MachineTable table;
    private final TransitionWork work;
    private final TransitionTimeouts timeouts;
    private final ExecutorService workers;

    TransitionRunner(MachineTable table, TransitionWork work, TransitionTimeouts timeouts, ExecutorService workers) {
        this.table = table;
        this.work = work;
        this.timeouts = timeouts;
        this.workers = workers;
    }

    /**
     * Everything, the timeout's bookkeeping included, happens on the worker: the thread that completes
     * durable writes only hands the work over.
     */
    void start(MachineEntry entry, Machine atAccept, String operationId, MutationRequest request) {
        TransitionKind kind = request.kind();
        Duration timeout = timeouts.of(kind);
        Instant acceptedAt = Instant.now();
        TransitionContext context = new TransitionContext(atAccept.id(), operationId, acceptedAt.plus(timeout));
        byte[] blob = request.bootstrapBlob();
        long grace = request.gracePeriodSeconds();
        try {
            workers.execute(() -> {
                UnaryOperator<Machine> postEffect;
                try {
                    postEffect = Failsafe.with(Timeout.<UnaryOperator<Machine>>builder(timeout).withInterrupt().build())
                            .get(() -> work.run(kind, atAccept, blob, grace, context));
                } catch (RuntimeException | Error e) {
                    context.cancel();
                    EngineObserver.Outcome outcome =
                            isTimeout(e) ? EngineObserver.Outcome.TIMEOUT : EngineObserver.Outcome.ERROR;
                    complete(entry, kind, operationId, acceptedAt, outcome, null, failureMessage(kind, timeout, e));
                    return;
                }
                context.cancel();
                complete(entry, kind, operationId, acceptedAt, EngineObserver.Outcome.SUCCESS, postEffect, null);
            });
        } catch (RejectedExecutionException stopping) {
            // the provider is stopping: the machine stays transitional and a restart fails it as interrupted
            log.warn("{} of machine {} ({}) not started: the provider is stopping", kind.label(), atAccept.id(),
                    operationId);
        }
    }

    private static boolean isTimeout(Throwable error) {
        return Failures.unwrap(error) instanceof TimeoutExceededException;
    }

    private static String failureMessage(TransitionKind kind, Duration timeout, Throwable error) {
        Throwable cause = Failures.unwrap(error);
        if (cause instanceof TimeoutExceededException) {
            return kind.label() + " transition timed out after " + GoDuration.format(timeout);
        }
        if (cause instanceof BackendException) {
            String message = cause.getMessage();
            return message == null || message.isBlank() ? kind.label() + " failed" : message;
        }
        return kind.label() + " failed: internal error: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    /** Applies a transition's outcome as the machine's next change; the worker does not wait for it. */
    @SuppressWarnings("FutureReturnValueIgnored") // the chain ends in a callback that logs every failure itself
    private void complete(MachineEntry entry, TransitionKind kind, String operationId, Instant acceptedAt,
            EngineObserver.Outcome outcome, UnaryOperator<Machine> postEffect, String failure) {
        entry.changes.then(() -> {
            Machine current = entry.snapshot();
            LastOperation last = entry.lastOperation();
            if (current.state() != kind.transitional() || last == null || !last.operationId().equals(operationId)) {
                log.info("discarding late {} result for machine {} ({}): it is {} now",
                        kind.label(), current.id(), operationId, current.state());
                return CompletableFuture.completedFuture(null);
            }
            Machine next;
            if (failure == null) {
                next = postEffect.apply(current);
            } else {
                log.warn("transition failed: machine={} kind={} operation={} err={}",
                        current.id(), kind.label(), operationId, failure);
                next = current.toBuilder().state(MachineState.FAILED).lastError(failure).build();
            }
            return table.commit(entry, next, List.of()).thenRun(() -> table.observer()
                    .transitionFinished(kind, outcome, Duration.between(acceptedAt, Instant.now())));
        }).whenComplete((done, error) -> {
            if (error == null) {
                return;
            }
            Throwable cause = Failures.unwrap(error);
            if (cause instanceof StoreFailure) {
                // the machine stays in its transitional state; a restart turns it FAILED as interrupted
                log.error("recording the {} result of machine {} failed: {}", kind.label(), entry.snapshot().id(),
                        cause.getMessage());
            } else {
                log.error("applying the {} result of machine {} failed", kind.label(), entry.snapshot().id(), cause);
            }
        });
    }
}
