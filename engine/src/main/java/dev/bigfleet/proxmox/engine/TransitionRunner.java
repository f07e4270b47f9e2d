package dev.bigfleet.proxmox.engine;

import dev.bigfleet.proxmox.api.GoDuration;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.failsafe.Timeout;
import dev.failsafe.TimeoutExceededException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a transition's backend work on a worker until its deadline, and applies the outcome as the
 * machine's next change, only if the machine is still in that operation's transitional state (a late
 * result is discarded). A transient backend failure (the API unreachable, overloaded, a breaker open)
 * is retried with backoff until the deadline; only the deadline or a definite failure fails it.
 */
final class TransitionRunner {
    private static final Logger log = LoggerFactory.getLogger(TransitionRunner.class);
    static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    static final Duration LONGEST_RETRY = Duration.ofSeconds(30);

    private final MachineTable table;
    private final TransitionWork work;
    private final TransitionTimeouts timeouts;
    private final ExecutorService workers;
    /** The transitions whose backend work is running now, so a deposed leader can abandon them. */
    private final Set<TransitionContext> running = ConcurrentHashMap.newKeySet();

    TransitionRunner(MachineTable table, TransitionWork work, TransitionTimeouts timeouts, ExecutorService workers) {
        this.table = table;
        this.work = work;
        this.timeouts = timeouts;
        this.workers = workers;
    }

    Duration timeoutOf(TransitionKind kind) {
        return timeouts.of(kind);
    }

    /** The work an accepted transition (or one a restart interrupted) still has to do. */
    @SuppressWarnings("ArrayRecordComponent") // the blob is handed to the backend, never compared
    record Run(MachineEntry entry, Machine atAccept, LastOperation operation, byte[] blob) {
        TransitionKind kind() {
            return operation.kind();
        }
    }

    /**
     * Hands the work to a worker. Everything, the deadline's bookkeeping included, happens there: the
     * thread that completes durable writes only hands the work over.
     */
    void start(Run run) {
        TransitionKind kind = run.kind();
        Instant deadline =
                run.operation().deadline().orElseGet(() -> Instant.now().plus(timeouts.of(kind)));
        TransitionContext context =
                new TransitionContext(run.atAccept().id(), run.operation().operationId(), deadline);
        try {
            workers.execute(() -> execute(run, context));
        } catch (RejectedExecutionException stopping) {
            // the provider is stopping: the machine stays transitional and the next start drives it on
            log.warn(
                    "{} of machine {} ({}) not started: the provider is stopping",
                    kind.label(),
                    run.atAccept().id(),
                    run.operation().operationId());
        }
    }

    /**
     * Cancels the backend work of every running transition: this replica no longer leads, and its
     * successor drives them on under the same operation ids. Their outcomes cannot be recorded.
     */
    int abandonRunning() {
        int abandoned = 0;
        for (TransitionContext context : running) {
            context.cancel();
            abandoned++;
        }
        return abandoned;
    }

    private void execute(Run run, TransitionContext context) {
        running.add(context);
        try {
            executeTracked(run, context);
        } finally {
            running.remove(context);
        }
    }

    private void executeTracked(Run run, TransitionContext context) {
        TransitionKind kind = run.kind();
        Instant startedAt = Instant.now();
        Duration left = Duration.between(startedAt, context.deadline());
        if (left.isNegative() || left.isZero()) {
            context.cancel();
            complete(run, startedAt, EngineObserver.Outcome.TIMEOUT, null, timedOut(kind), false);
            return;
        }
        RetryPolicy<UnaryOperator<Machine>> transientRetry = RetryPolicy.<UnaryOperator<Machine>>builder()
                .handleIf(e -> e instanceof BackendException b && b.isTransient())
                .withBackoff(FIRST_RETRY, LONGEST_RETRY)
                .withMaxRetries(-1)
                .onRetry(e -> log.info(
                        "{} of machine {} ({}) retries after a transient failure: {}",
                        kind.label(),
                        run.atAccept().id(),
                        run.operation().operationId(),
                        e.getLastException().getMessage()))
                .build();
        UnaryOperator<Machine> postEffect;
        try {
            postEffect = Failsafe.with(Timeout.<UnaryOperator<Machine>>builder(left)
                            .withInterrupt()
                            .build())
                    .compose(transientRetry)
                    .get(() -> work.run(
                            kind, run.atAccept(), run.blob(), run.operation().graceSeconds(), context));
        } catch (RuntimeException | Error e) {
            context.cancel();
            Throwable cause = Failures.unwrap(e);
            boolean timeout = cause instanceof TimeoutExceededException;
            complete(
                    run,
                    startedAt,
                    timeout ? EngineObserver.Outcome.TIMEOUT : EngineObserver.Outcome.ERROR,
                    null,
                    timeout ? timedOut(kind) : failureMessage(kind, cause),
                    bound(kind, cause, context));
            return;
        }
        context.cancel();
        complete(run, startedAt, EngineObserver.Outcome.SUCCESS, postEffect, null, false);
    }

    private String timedOut(TransitionKind kind) {
        return kind.label() + " transition timed out after " + GoDuration.format(timeouts.of(kind));
    }

    /**
     * Whether the VM of a machine failed in {@code kind} may be a live node: after a Drain, and after a
     * Configure whose bootstrap hook started (or may have: the deadline hit while it ran).
     */
    private static boolean bound(TransitionKind kind, Throwable cause, TransitionContext context) {
        return switch (kind) {
            case DRAIN -> true;
            case CONFIGURE ->
                (cause instanceof BackendException b && !b.isTransient())
                        ? b.bootstrapStarted()
                        : context.wasBootstrapCalled();
            default -> false;
        };
    }

    private static String failureMessage(TransitionKind kind, Throwable cause) {
        if (cause instanceof BackendException) {
            String message = cause.getMessage();
            return message == null || message.isBlank() ? kind.label() + " failed" : message;
        }
        return kind.label() + " failed: internal error: " + cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + cause.getMessage());
    }

    private static OperationOutcome historyOutcome(EngineObserver.Outcome outcome) {
        return switch (outcome) {
            case SUCCESS -> OperationOutcome.SUCCESS;
            case ERROR -> OperationOutcome.ERROR;
            case TIMEOUT -> OperationOutcome.TIMEOUT;
        };
    }

    /**
     * Applies a transition's outcome as the machine's next change, with the end of its operation for
     * the history; the worker does not wait for it.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // the chain ends in a callback that logs every failure itself
    private void complete(
            Run run,
            Instant startedAt,
            EngineObserver.Outcome outcome,
            UnaryOperator<Machine> postEffect,
            String failure,
            boolean bound) {
        MachineEntry entry = run.entry();
        TransitionKind kind = run.kind();
        String operationId = run.operation().operationId();
        entry.changes
                .then(() -> {
                    Machine current = entry.snapshot();
                    LastOperation last = entry.lastOperation();
                    if (current.state() != kind.transitional()
                            || last == null
                            || !last.operationId().equals(operationId)) {
                        log.info(
                                "discarding late {} result for machine {} ({}): it is {} now",
                                kind.label(),
                                current.id(),
                                operationId,
                                current.state());
                        return CompletableFuture.completedFuture(null);
                    }
                    Machine next;
                    FailureRecord before = entry.failure();
                    if (failure == null) {
                        next = postEffect.apply(current);
                    } else {
                        log.warn(
                                "transition failed: machine={} kind={} operation={} err={}",
                                current.id(),
                                kind.label(),
                                operationId,
                                failure);
                        next = current.toBuilder()
                                .state(MachineState.FAILED)
                                .lastError(failure)
                                .build();
                        entry.failure(FailureRecord.of(kind, Instant.now(), bound, failure));
                    }
                    OperationRecord ended =
                            OperationRecord.ended(kind, operationId, Instant.now(), historyOutcome(outcome), failure);
                    return table.commit(entry, next, List.of(), ended).handle((ok, error) -> {
                        if (error != null) {
                            entry.failure(before);
                            throw error instanceof CompletionException c ? c : new CompletionException(error);
                        }
                        table.observer().transitionFinished(kind, outcome, Duration.between(startedAt, Instant.now()));
                        return null;
                    });
                })
                .whenComplete((done, error) -> {
                    if (error == null) {
                        return;
                    }
                    Throwable cause = Failures.unwrap(error);
                    if (cause instanceof StoreFailure) {
                        // the machine stays in its transitional state; a restart drives it on
                        log.error(
                                "recording the {} result of machine {} failed: {}",
                                kind.label(),
                                entry.snapshot().id(),
                                cause.getMessage());
                    } else {
                        log.error(
                                "applying the {} result of machine {} failed",
                                kind.label(),
                                entry.snapshot().id(),
                                cause);
                    }
                });
    }
}
