package dev.bigfleet.proxmox.store.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of a durable {@link StateStore}, as tests every store runs: extend this class for
 * your store, with {@code S} the place its state lives (a file, a database), and implement how to
 * get a fresh place, open a store on it, and damage it the ways the tests need. What is particular
 * to your store (its journal, its lease, its connection errors) stays in your subclass.
 *
 * <p>Each test checks what an operator would notice: a change the provider acknowledged that a
 * restart or a crash lost, writes published out of order, List cursors that stop working after a
 * restart, a fence mark (a signed epoch and sequence, negative ones included) that came back
 * different, an operation history that grew without bound or outlived its machine, a state of a
 * newer provider or a damaged one that was opened (or changed) instead of refused with one line
 * naming it, and a second store writing beside the first on the same state.
 *
 * @param <S> where a store's state lives
 */
public abstract class BaseStateStoreTest<S> {
    /** A place for a new, empty state (not yet created: the first open creates it). */
    protected abstract S newState() throws Exception;

    /** Opens a store on {@code state}, as the provider does at startup. */
    protected abstract StateStore open(S state) throws StoreException;

    /**
     * Makes a store, opened and loaded, the one that writes: nothing for a store that only one
     * process opens; a replicated store takes its lease here.
     */
    protected void startWriting(StateStore store) throws Exception {}

    /** How the store's messages name {@code state}: each refusal starts with {@code --state } and this. */
    protected abstract String describe(S state);

    /**
     * What a crash of the process holding {@code store} (open on {@code state}) would leave behind:
     * a state to open in its place, as a restarted provider opens it. The test closes {@code store}
     * afterwards.
     */
    protected abstract S crashImage(StateStore store, S state) throws Exception;

    /** Marks {@code state} (closed) as written by a provider whose schema is newer than this one's. */
    protected abstract void makeSchemaNewer(S state) throws Exception;

    /** Damages {@code state} (closed) the way a torn write or a bad restore would. */
    protected abstract void damage(S state) throws Exception;

    /** Everything {@code state} holds, comparable with {@code equals}: a refused open must leave it so. */
    protected abstract Object contents(S state) throws Exception;

    /** A machine as the engine writes it, in {@code state}, with maps of text that needs care. */
    protected static Machine machine(String id, MachineState state) {
        return Machine.builder(id)
                .state(state)
                .host(state == MachineState.SPECULATIVE ? HostRef.NONE : new HostRef("proxmox", "n1/101"))
                .instanceType("pve.small")
                .zone("n1")
                .pricePerHour(0.0092)
                .resources(Map.of("cpu", "1"))
                .allocatable(Map.of("cpu", "2", "memory", "4Gi"))
                .cluster(state == MachineState.CONFIGURED ? "c1" : "")
                .shardMetadata(
                        state == MachineState.CONFIGURED
                                ? Map.of("ünï", "\u0001", "e", "", "quote", "\"'\\")
                                : Map.of())
                .build();
    }

    /** A write of {@code id} in {@code state} that starts or ends {@code operation}. */
    protected static StoreWrite withOperation(String id, MachineState state, OperationRecord operation, long revision) {
        return new StoreWrite(machine(id, state), null, null, operation, List.of(), null, revision, revision, null);
    }

    /** What a store held when opened. */
    protected record Loaded(Optional<StoredCounters> counters, Map<String, StoredMachine> machines) {}

    /** Opens a store on {@code state}, loads it, closes it. */
    protected Loaded reopen(S state) throws Exception {
        try (StateStore store = open(state)) {
            return load(store);
        }
    }

    protected static Loaded load(StateStore store) throws StoreException {
        Map<String, StoredMachine> machines = new HashMap<>();
        Optional<StoredCounters> counters = store.load(m -> {
            StoredMachine before = machines.put(m.machine().id(), m);
            assertThat(before)
                    .as("machine %s handed over twice", m.machine().id())
                    .isNull();
        });
        return new Loaded(counters, machines);
    }

    /** Opens, loads and starts writing: a store as a leading provider holds it. */
    protected StateStore openForWriting(S state) throws Exception {
        StateStore store = open(state);
        try {
            load(store);
            startWriting(store);
            return store;
        } catch (Exception | Error e) {
            store.close();
            throw e;
        }
    }

    private static final Instant DEADLINE = Instant.parse("2026-12-01T10:08:00.123Z");
    private static final FailureRecord FAILURE = FailureRecord.of(
                    TransitionKind.DRAIN, Instant.parse("2026-12-01T10:00:00.456Z"), true, "drain failed: PDB")
            .afterFailedCleanup(Instant.parse("2026-12-01T10:01:00.789Z"));

    /**
     * Changes of every kind, acknowledged: m1 CONFIGURED with a deadline and marks, m2
     * FAILED with its failure and a grace period, m3 added and retired, m1's mark advanced alone.
     */
    private static List<CompletableFuture<Void>> writeTheAcknowledgedChanges(StateStore store) {
        return List.of(
                store.write(new StoreWrite(
                        machine("m1", MachineState.CONFIGURED),
                        new LastOperation(TransitionKind.CONFIGURE, "op-7", "c1", Optional.of(DEADLINE), 0),
                        List.of(new MarkWrite("m1", "shard-a", new FenceMark(3, 9))),
                        null,
                        5,
                        7,
                        null)),
                store.write(new StoreWrite(
                        machine("m2", MachineState.FAILED).toBuilder()
                                .lastError("drain failed: PDB")
                                .build(),
                        new LastOperation(TransitionKind.DRAIN, "op-8", "c1", Optional.of(DEADLINE), 30),
                        FAILURE,
                        List.of(new MarkWrite("m2", "shard-b", new FenceMark(1, 1))),
                        null,
                        6,
                        8,
                        null)),
                store.write(new StoreWrite(
                        machine("m3", MachineState.SPECULATIVE),
                        null,
                        List.of(new MarkWrite("m3", "shard-a", new FenceMark(3, 10))),
                        null,
                        9,
                        8,
                        null)),
                store.write(StoreWrite.marksOnly(List.of(new MarkWrite("m1", "shard-a", new FenceMark(4, 1))))),
                store.write(StoreWrite.deletion("m3", null)));
    }

    private static void assertHoldsTheAcknowledgedChanges(Loaded loaded) {
        assertThat(loaded.counters()).contains(new StoredCounters(9, 8));
        assertThat(loaded.machines()).containsOnlyKeys("m1", "m2");
        StoredMachine m1 = loaded.machines().get("m1");
        assertThat(m1.machine()).isEqualTo(machine("m1", MachineState.CONFIGURED));
        assertThat(m1.revision()).isEqualTo(5);
        assertThat(m1.lastOperation())
                .isEqualTo(new LastOperation(TransitionKind.CONFIGURE, "op-7", "c1", Optional.of(DEADLINE), 0));
        assertThat(m1.failure()).isNull();
        assertThat(m1.marks()).containsExactly(Map.entry("shard-a", new FenceMark(4, 1)));
        StoredMachine m2 = loaded.machines().get("m2");
        assertThat(m2.machine().state()).isEqualTo(MachineState.FAILED);
        assertThat(m2.machine().lastError()).isEqualTo("drain failed: PDB");
        assertThat(m2.revision()).isEqualTo(6);
        assertThat(m2.lastOperation().graceSeconds()).isEqualTo(30);
        assertThat(m2.failure()).isEqualTo(FAILURE);
        assertThat(m2.marks()).containsExactly(Map.entry("shard-b", new FenceMark(1, 1)));
    }

    @Test
    void aFreshStateHoldsNothing() throws Exception {
        Loaded loaded = reopen(newState());
        assertThat(loaded.counters()).isEmpty();
        assertThat(loaded.machines()).isEmpty();
    }

    @Test
    void everyAcknowledgedChangeSurvivesReopening() throws Exception {
        S state = newState();
        try (StateStore store = openForWriting(state)) {
            assertThat(store.isDurable()).isTrue();
            writeTheAcknowledgedChanges(store).forEach(CompletableFuture::join);
        }
        assertHoldsTheAcknowledgedChanges(reopen(state));
        assertHoldsTheAcknowledgedChanges(reopen(state));
    }

    @Test
    void everyAcknowledgedChangeSurvivesACrash() throws Exception {
        S state = newState();
        S image;
        StateStore store = openForWriting(state);
        try {
            writeTheAcknowledgedChanges(store).forEach(CompletableFuture::join);
            image = crashImage(store, state);
        } finally {
            store.close();
        }
        assertHoldsTheAcknowledgedChanges(reopen(image));
    }

    @Test
    void writesArePublishedInTheOrderQueuedEachBeforeItsFutureCompletes() throws Exception {
        S state = newState();
        int writes = 500;
        List<Integer> published = new CopyOnWriteArrayList<>();
        List<String> violations = new CopyOnWriteArrayList<>();
        try (StateStore store = openForWriting(state)) {
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 1; i <= writes; i++) {
                int n = i;
                CompletableFuture<Void> f = store.write(new StoreWrite(
                        machine("m" + (i % 100), MachineState.SPECULATIVE),
                        null,
                        List.of(),
                        null,
                        i,
                        0,
                        () -> published.add(n)));
                futures.add(f.whenComplete((ok, failed) -> {
                    if (!published.contains(n)) {
                        violations.add("write " + n + " completed before it was published");
                    }
                }));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        }
        assertThat(violations).isEmpty();
        assertThat(published).hasSize(writes).isSorted();
        Loaded loaded = reopen(state);
        assertThat(loaded.machines()).hasSize(100);
        assertThat(loaded.machines().get("m0").revision()).isEqualTo(writes);
        assertThat(loaded.machines().get("m1").revision()).isEqualTo(writes - 99);
        assertThat(loaded.counters().orElseThrow().revision()).isEqualTo(writes);
    }

    @Test
    void theCursorKeyOutlivesRestartsAndIsTheStatesOwn() throws Exception {
        S state = newState();
        byte[] key;
        try (StateStore store = openForWriting(state)) {
            key = store.cursorKey();
            store.write(new StoreWrite(machine("m1", MachineState.SPECULATIVE), null, List.of(), null, 1, 0, null))
                    .join();
        }
        assertThat(key).as("a key long enough to sign with").hasSizeGreaterThanOrEqualTo(16);
        try (StateStore store = open(state)) {
            load(store);
            assertThat(store.cursorKey()).as("the key after a restart").isEqualTo(key);
        }
        S other = newState();
        try (StateStore store = open(other)) {
            load(store);
            assertThat(store.cursorKey()).as("another state's key").isNotEqualTo(key);
        }
    }

    @Test
    void fenceMarksKeepTheirSignedEpochsAndSequences() throws Exception {
        S state = newState();
        Map<String, FenceMark> marks = Map.of(
                "negative", new FenceMark(-3, -9),
                "negative-epoch", new FenceMark(-1, 0),
                "negative-sequence", new FenceMark(0, -1),
                "extremes", new FenceMark(Long.MIN_VALUE, Long.MAX_VALUE),
                "other-extremes", new FenceMark(Long.MAX_VALUE, Long.MIN_VALUE));
        S image;
        StateStore store = openForWriting(state);
        try {
            List<MarkWrite> writes = marks.entrySet().stream()
                    .map(e -> new MarkWrite("m1", e.getKey(), e.getValue()))
                    .toList();
            store.write(new StoreWrite(machine("m1", MachineState.IDLE), null, writes, null, 1, 0, null))
                    .join();
            store.write(new StoreWrite(
                            machine("m2", MachineState.SPECULATIVE),
                            null,
                            List.of(new MarkWrite("m2", "negative", new FenceMark(-5, 7))),
                            null,
                            2,
                            0,
                            null))
                    .join();
            // a mark advances alone, from one negative token to the next
            store.write(StoreWrite.marksOnly(List.of(new MarkWrite("m2", "negative", new FenceMark(-5, 8)))))
                    .join();
            image = crashImage(store, state);
        } finally {
            store.close();
        }
        for (S s : List.of(state, image)) {
            Loaded loaded = reopen(s);
            assertThat(loaded.machines().get("m1").marks()).isEqualTo(marks);
            assertThat(loaded.machines().get("m2").marks())
                    .containsExactly(Map.entry("negative", new FenceMark(-5, 8)));
        }
    }

    @Test
    void aRetiredMachineTakesItsMarksWithIt() throws Exception {
        S state = newState();
        try (StateStore store = openForWriting(state)) {
            store.write(new StoreWrite(
                            machine("gone", MachineState.SPECULATIVE),
                            null,
                            List.of(new MarkWrite("gone", "s", new FenceMark(1, 1))),
                            null,
                            1,
                            0,
                            null))
                    .join();
            List<String> ran = new CopyOnWriteArrayList<>();
            store.write(StoreWrite.deletion("gone", () -> ran.add("gone"))).join();
            assertThat(ran).as("the deletion's afterDurable").containsExactly("gone");
            // the same id, added again, starts without the old marks
            store.write(new StoreWrite(machine("gone", MachineState.SPECULATIVE), null, List.of(), null, 2, 0, null))
                    .join();
        }
        assertThat(reopen(state).machines().get("gone").marks()).isEmpty();
    }

    @Test
    void aMachineThatTakesTheSlotOfAnotherReplacesItInOneWrite() throws Exception {
        S state = newState();
        try (StateStore store = openForWriting(state)) {
            store.write(new StoreWrite(
                            machine("slot/000", MachineState.FAILED).toBuilder()
                                    .lastError("create failed")
                                    .build(),
                            null,
                            List.of(new MarkWrite("slot/000", "s", new FenceMark(3, 9))),
                            null,
                            1,
                            0,
                            null))
                    .join();
            List<String> ran = new CopyOnWriteArrayList<>();
            // the FAILED machine leaves and its slot's next machine arrives, as one change
            store.write(new StoreWrite(
                            machine("slot/000.2", MachineState.SPECULATIVE),
                            null,
                            List.of(),
                            "slot/000",
                            2,
                            0,
                            () -> ran.add("replaced")))
                    .join();
            assertThat(ran).containsExactly("replaced");
        }
        Loaded loaded = reopen(state);
        assertThat(loaded.machines()).containsOnlyKeys("slot/000.2");
        assertThat(loaded.machines().get("slot/000.2").machine().state()).isEqualTo(MachineState.SPECULATIVE);
        assertThat(loaded.machines().get("slot/000.2").marks()).isEmpty();
        assertThat(loaded.counters().orElseThrow().revision()).isEqualTo(2);
    }

    @Test
    void operationHistoriesAreKeptNewestFirstCutToTenAndDroppedWithTheirMachine() throws Exception {
        S state = newState();
        Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
        try (StateStore store = openForWriting(state)) {
            // a start and its end in one group commit, and an end whose start the store never saw
            CompletableFuture<Void> start = store.write(withOperation(
                    "m1", MachineState.CREATING, OperationRecord.started(TransitionKind.CREATE, "op-1", t0), 1));
            CompletableFuture<Void> end = store.write(withOperation(
                    "m1",
                    MachineState.IDLE,
                    OperationRecord.ended(
                            TransitionKind.CREATE, "op-1", t0.plusSeconds(40), OperationOutcome.SUCCESS, ""),
                    2));
            store.write(withOperation(
                            "m2",
                            MachineState.FAILED,
                            OperationRecord.ended(
                                    TransitionKind.DRAIN, "op-2", t0, OperationOutcome.ERROR, "drain failed: PDB"),
                            3))
                    .join();
            start.join();
            end.join();
            store.write(withOperation(
                            "m4", MachineState.CREATING, OperationRecord.started(TransitionKind.CREATE, "op-4", t0), 4))
                    .join();
            store.write(StoreWrite.deletion("m4", null)).join();
            for (int i = 0; i < 12; i++) {
                store.write(withOperation(
                                "m3",
                                MachineState.CONFIGURING,
                                OperationRecord.started(TransitionKind.CONFIGURE, "op-c" + i, t0.plusSeconds(i)),
                                10 + i))
                        .join();
            }
            assertThat(store.operations("m3"))
                    .as("before a restart")
                    .hasSize(OperationRecord.KEPT_PER_MACHINE)
                    .first()
                    .satisfies(op -> assertThat(op.operationId()).isEqualTo("op-c11"));
        }
        try (StateStore store = open(state)) {
            load(store);
            assertThat(store.operations("m1"))
                    .containsExactly(new OperationRecord(
                            TransitionKind.CREATE,
                            "op-1",
                            Optional.of(t0),
                            Optional.of(t0.plusSeconds(40)),
                            OperationOutcome.SUCCESS,
                            ""));
            assertThat(store.operations("m2")).singleElement().satisfies(op -> {
                assertThat(op.startedAt()).isEmpty();
                assertThat(op.endedAt()).contains(t0);
                assertThat(op.error()).isEqualTo("drain failed: PDB");
            });
            assertThat(store.operations("m3"))
                    .extracting(OperationRecord::operationId)
                    .containsExactly(
                            "op-c11", "op-c10", "op-c9", "op-c8", "op-c7", "op-c6", "op-c5", "op-c4", "op-c3", "op-c2");
            assertThat(store.operations("m4"))
                    .as("a retired machine has no history")
                    .isEmpty();
            assertThat(store.operations("nope")).isEmpty();
        }
    }

    /** Writes a Create of {@code id} started at {@code t0} and ended successfully 3 s later (revisions 1, 2). */
    private static void createdInThreeSeconds(StateStore store, String id, Instant t0) {
        store.write(withOperation(
                        id, MachineState.CREATING, OperationRecord.started(TransitionKind.CREATE, "op-1", t0), 1))
                .join();
        store.write(withOperation(
                        id,
                        MachineState.IDLE,
                        OperationRecord.ended(
                                TransitionKind.CREATE, "op-1", t0.plusSeconds(3), OperationOutcome.SUCCESS, ""),
                        2))
                .join();
    }

    @Test
    void aWriteThatStartsOrEndsNoOperationLeavesTheHistoryAlone() throws Exception {
        S state = newState();
        Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
        try (StateStore store = openForWriting(state)) {
            createdInThreeSeconds(store, "m1", t0);
            store.write(new StoreWrite(
                            machine("m1", MachineState.IDLE).toBuilder()
                                    .labels(Map.of("refreshed", "yes"))
                                    .build(),
                            new LastOperation(TransitionKind.CREATE, "op-1", ""),
                            List.of(),
                            null,
                            3,
                            1,
                            null))
                    .join();
            assertThat(store.operations("m1"))
                    .singleElement()
                    .satisfies(op -> assertThat(op.outcome()).isEqualTo(OperationOutcome.SUCCESS));
        }
        try (StateStore store = open(state)) {
            load(store);
            assertThat(store.operations("m1"))
                    .singleElement()
                    .satisfies(op -> assertThat(op.outcome()).isEqualTo(OperationOutcome.SUCCESS));
        }
    }

    @Test
    void anOperationInterruptedByACrashIsStillRunningAfterItAndEndsThere() throws Exception {
        S state = newState();
        Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
        S image;
        StateStore store = openForWriting(state);
        try {
            createdInThreeSeconds(store, "m1", t0);
            store.write(withOperation(
                            "m1",
                            MachineState.CONFIGURING,
                            OperationRecord.started(TransitionKind.CONFIGURE, "op-2", t0.plusSeconds(30)),
                            3))
                    .join();
            image = crashImage(store, state);
        } finally {
            store.close();
        }
        Instant restart = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        try (StateStore again = openForWriting(image)) {
            List<OperationRecord> history = again.operations("m1");
            assertThat(history).extracting(OperationRecord::operationId).containsExactly("op-2", "op-1");
            assertThat(history.get(0).outcome()).isEqualTo(OperationOutcome.RUNNING);
            // the restart finds the Configure interrupted and records that
            again.write(withOperation(
                            "m1",
                            MachineState.FAILED,
                            OperationRecord.ended(
                                    TransitionKind.CONFIGURE,
                                    "op-2",
                                    restart,
                                    OperationOutcome.INTERRUPTED,
                                    "configure transition op-2 was interrupted by a provider restart"),
                            4))
                    .join();
        }
        try (StateStore again = open(image)) {
            load(again);
            OperationRecord interrupted = again.operations("m1").get(0);
            assertThat(interrupted.outcome()).isEqualTo(OperationOutcome.INTERRUPTED);
            assertThat(interrupted.startedAt()).as("the start the crash kept").contains(t0.plusSeconds(30));
            assertThat(interrupted.endedAt()).contains(restart);
            assertThat(interrupted.error()).contains("interrupted by a provider restart");
        }
    }

    private void assertRefusedAsItWas(S state, String expected) throws Exception {
        Object before = contents(state);
        assertThatThrownBy(() -> open(state).close())
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("--state " + describe(state) + ": ")
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).as("one line").doesNotContain("\n"));
        assertThat(contents(state)).as("what the refused state holds").isEqualTo(before);
    }

    /** A state with a machine in it, closed. */
    private S aStateWithAMachine() throws Exception {
        S state = newState();
        try (StateStore store = openForWriting(state)) {
            store.write(new StoreWrite(
                            machine("m1", MachineState.IDLE),
                            new LastOperation(TransitionKind.CREATE, "op-1", ""),
                            List.of(new MarkWrite("m1", "s", new FenceMark(1, 1))),
                            null,
                            1,
                            1,
                            null))
                    .join();
        }
        return state;
    }

    @Test
    void aStateOfANewerSchemaIsRefusedWithOneLineAndLeftAsItWas() throws Exception {
        S state = aStateWithAMachine();
        makeSchemaNewer(state);
        assertRefusedAsItWas(state, "newer than this provider supports");
    }

    @Test
    void aDamagedStateIsRefusedWithOneLineAndLeftAsItWas() throws Exception {
        S state = aStateWithAMachine();
        damage(state);
        assertRefusedAsItWas(state, "damaged");
    }

    @Test
    void aSecondStoreOnTheSameStateWritesNothingBesideTheFirst() throws Exception {
        S state = newState();
        try (StateStore first = openForWriting(state)) {
            first.write(new StoreWrite(machine("m1", MachineState.SPECULATIVE), null, List.of(), null, 1, 0, null))
                    .join();
            StateStore second;
            try {
                second = open(state);
            } catch (StoreException refused) {
                // a store one process holds at a time refuses the second open, naming the state
                assertThat(refused.getMessage())
                        .startsWith("--state " + describe(state) + ": ")
                        .doesNotContain("\n");
                second = null;
            }
            if (second != null) {
                // a store replicas share opens a second time, but as a standby that writes nothing
                try (StateStore standby = second) {
                    load(standby);
                    CompletableFuture<Void> write = standby.write(
                            new StoreWrite(machine("m2", MachineState.SPECULATIVE), null, List.of(), null, 2, 0, null));
                    assertThatThrownBy(write::join)
                            .isInstanceOf(CompletionException.class)
                            .hasCauseInstanceOf(StoreException.class);
                }
            }
            first.write(new StoreWrite(machine("m3", MachineState.SPECULATIVE), null, List.of(), null, 3, 0, null))
                    .join();
        }
        assertThat(reopen(state).machines()).containsOnlyKeys("m1", "m3");
    }
}
