package dev.bigfleet.proxmox.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.FenceToken;
import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.InMemoryStateStore;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each machine's operation history: an operation is recorded when it is accepted and again when it
 * ends, with how it ended; the newest ten are kept; one a restart stops shows as interrupted.
 */
class OperationHistoryTest {
    private static final FenceToken NO_TOKEN = FenceToken.NONE;
    private final InMemoryStateStore store = new InMemoryStateStore();
    private EngineUnderTest under;

    @AfterEach
    void tearDown() {
        if (under != null) {
            under.close();
        }
    }

    private LifecycleEngine engine(Duration timeout) throws Exception {
        under = new EngineUnderTest(store, new TransitionTimeouts(timeout, timeout, timeout, timeout), 4);
        return under.engine;
    }

    private static void awaitState(LifecycleEngine engine, String id, MachineState state) {
        await().atMost(Duration.ofSeconds(10))
                .until(() -> engine.get(id).orElseThrow().state() == state);
    }

    @Test
    void anOperationIsRecordedRunningWhenAcceptedAndWithItsOutcomeWhenItEnds() throws Exception {
        LifecycleEngine engine = engine(Duration.ofMillis(500));
        String id = under.ids.get(0);
        under.backend.script(id, ScriptedBackend.Script.BLOCK);
        Instant before = Instant.now();
        Accepted create = engine.mutate(MutationRequest.create(id, NO_TOKEN));

        List<OperationRecord> running = engine.operations(id);
        assertThat(running).hasSize(1);
        assertThat(running.get(0).operationId()).isEqualTo(create.operationId());
        assertThat(running.get(0).kind()).isEqualTo(TransitionKind.CREATE);
        assertThat(running.get(0).outcome()).isEqualTo(OperationOutcome.RUNNING);
        assertThat(running.get(0).startedAt())
                .hasValueSatisfying(at -> assertThat(at).isBetween(before, Instant.now()));
        assertThat(running.get(0).endedAt()).isEmpty();

        awaitState(engine, id, MachineState.FAILED); // the blocked Create runs into its 500ms deadline
        OperationRecord timedOut = engine.operations(id).get(0);
        assertThat(timedOut.outcome()).isEqualTo(OperationOutcome.TIMEOUT);
        assertThat(timedOut.error()).isEqualTo("create transition timed out after 500ms");
        assertThat(timedOut.startedAt()).isEqualTo(running.get(0).startedAt());
        assertThat(timedOut.endedAt())
                .hasValueSatisfying(end -> assertThat(end)
                        .isAfterOrEqualTo(timedOut.startedAt().orElseThrow().plusMillis(500)));

        String other = under.ids.get(1);
        Accepted ok = engine.mutate(MutationRequest.create(other, NO_TOKEN));
        awaitState(engine, other, MachineState.IDLE);
        under.backend.script(other, ScriptedBackend.Script.FAIL);
        Accepted failing = engine.mutate(MutationRequest.configure(other, NO_TOKEN, "c1", new byte[] {1}, Map.of()));
        awaitState(engine, other, MachineState.FAILED);
        List<OperationRecord> history = engine.operations(other);
        assertThat(history)
                .extracting(OperationRecord::operationId)
                .containsExactly(failing.operationId(), ok.operationId());
        assertThat(history.get(0).outcome()).isEqualTo(OperationOutcome.ERROR);
        assertThat(history.get(0).error()).isEqualTo("scripted failure for " + other);
        assertThat(history.get(1).outcome()).isEqualTo(OperationOutcome.SUCCESS);
        assertThat(history.get(1).error()).isEmpty();
        assertThat(engine.operations(under.ids.get(2))).isEmpty();
    }

    @Test
    void anIdempotentRetryRecordsNothingNewAndTheNewestTenAreKept() throws Exception {
        LifecycleEngine engine = engine(Duration.ofSeconds(5));
        String id = under.ids.get(0);
        Accepted first = engine.mutate(MutationRequest.create(id, NO_TOKEN));
        assertThat(engine.mutate(MutationRequest.create(id, NO_TOKEN)).operationId())
                .isEqualTo(first.operationId());
        assertThat(engine.operations(id)).hasSize(1);
        awaitState(engine, id, MachineState.IDLE);
        engine.mutate(MutationRequest.delete(id, NO_TOKEN));
        awaitState(engine, id, MachineState.SPECULATIVE);
        for (int lap = 0; lap < 6; lap++) {
            engine.mutate(MutationRequest.create(id, NO_TOKEN));
            awaitState(engine, id, MachineState.IDLE);
            engine.mutate(MutationRequest.delete(id, NO_TOKEN));
            awaitState(engine, id, MachineState.SPECULATIVE);
        }
        List<OperationRecord> history = engine.operations(id);
        assertThat(history).hasSize(OperationRecord.KEPT_PER_MACHINE);
        assertThat(history).allSatisfy(op -> assertThat(op.outcome()).isEqualTo(OperationOutcome.SUCCESS));
        assertThat(history).extracting(OperationRecord::kind).startsWith(TransitionKind.DELETE, TransitionKind.CREATE);
        assertThat(history).extracting(OperationRecord::operationId).doesNotContain(first.operationId());
        // newest first: the order they were accepted in, reversed
        List<Long> numbers = history.stream()
                .map(op -> Long.parseLong(op.operationId().substring("op-".length())))
                .toList();
        assertThat(numbers).isSortedAccordingTo((a, b) -> Long.compare(b, a));
    }

    @Test
    void aConfigureARestartInterruptedShowsAsInterruptedAndAResumedCreateEndsUnderItsId() throws Exception {
        LifecycleEngine engine = engine(Duration.ofSeconds(5));
        Machine configuring = engine.get(under.ids.get(0)).orElseThrow().toBuilder()
                .state(MachineState.CONFIGURING)
                .host(HostRef.of("proxmox", "z", 101))
                .cluster("c1")
                .build();
        Machine creating = engine.get(under.ids.get(1)).orElseThrow().toBuilder()
                .state(MachineState.CREATING)
                .build();
        Instant acceptedBefore = Instant.now().minusSeconds(3);
        LastOperation configure = new LastOperation(
                TransitionKind.CONFIGURE, "op-41", "c1", Optional.of(acceptedBefore.plusSeconds(60)), 0);
        LastOperation create =
                new LastOperation(TransitionKind.CREATE, "op-42", "", Optional.of(acceptedBefore.plusSeconds(60)), 0);
        // what the previous process made durable before it stopped: both operations running
        store.write(new StoreWrite(
                        configuring,
                        configure,
                        null,
                        OperationRecord.started(TransitionKind.CONFIGURE, "op-41", acceptedBefore),
                        List.of(),
                        null,
                        90,
                        42,
                        null))
                .join();
        store.write(new StoreWrite(
                        creating,
                        create,
                        null,
                        OperationRecord.started(TransitionKind.CREATE, "op-42", acceptedBefore),
                        List.of(),
                        null,
                        91,
                        42,
                        null))
                .join();

        engine.restore(new StoredMachine(configuring, 90, configure, Map.of()));
        engine.restore(new StoredMachine(creating, 91, create, Map.of()));
        engine.restored(new StoredCounters(91, 42));
        assertThat(engine.resumeInterruptedTransitions()).isEqualTo(new RestartOutcome(1, 1));

        OperationRecord interrupted = engine.operations(configuring.id()).get(0);
        assertThat(interrupted.operationId()).isEqualTo("op-41");
        assertThat(interrupted.outcome()).isEqualTo(OperationOutcome.INTERRUPTED);
        assertThat(interrupted.error())
                .isEqualTo("configure transition op-41 was interrupted by a provider restart"
                        + " (the bootstrap blob is never kept, so it cannot go on)");
        assertThat(interrupted.startedAt()).hasValue(acceptedBefore);
        assertThat(interrupted.endedAt()).isPresent();

        awaitState(engine, creating.id(), MachineState.IDLE);
        List<OperationRecord> created = engine.operations(creating.id());
        assertThat(created).hasSize(1);
        assertThat(created.get(0).operationId()).isEqualTo("op-42");
        assertThat(created.get(0).outcome()).isEqualTo(OperationOutcome.SUCCESS);
        assertThat(created.get(0).startedAt())
                .as("the start the first process recorded")
                .hasValue(acceptedBefore);
    }
}
