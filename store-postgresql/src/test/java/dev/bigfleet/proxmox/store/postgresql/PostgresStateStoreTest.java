package dev.bigfleet.proxmox.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.LeaderLease.LeaseHolder;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The PostgreSQL store against a real PostgreSQL server: durability, fencing, following and refusals. */
class PostgresStateStoreTest {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static TestingPostgres postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = TestingPostgres.start();
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    private static PostgresStateStore open(String db) throws StoreException {
        return PostgresStateStore.open(PostgresTargets.of(postgres, db, Duration.ofSeconds(5)));
    }

    private static Machine machine(String id, MachineState state) {
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

    /** Takes the lease and leads with it; returns the epoch. */
    private static long lead(PostgresStateStore store, String name, Runnable onDeposed) throws StoreException {
        OptionalLong epoch = store.lease().tryAcquire(name, LEASE);
        assertThat(epoch).as("lease for %s", name).isPresent();
        store.lead(epoch.getAsLong(), onDeposed);
        return epoch.getAsLong();
    }

    private static Map<String, StoredMachine> loadAll(PostgresStateStore store, List<StoredCounters> counters)
            throws StoreException {
        Map<String, StoredMachine> machines = new HashMap<>();
        store.load(m -> machines.put(m.machine().id(), m)).ifPresent(counters::add);
        return machines;
    }

    @Test
    void committedWritesSurviveReopeningWithMarksOperationsFailuresAndTheCursorKey() throws Exception {
        String db = postgres.createDatabase();
        byte[] key;
        Instant deadline = Instant.now().plusSeconds(480).truncatedTo(ChronoUnit.MILLIS);
        FailureRecord failure = FailureRecord.of(
                        TransitionKind.DRAIN, Instant.now().truncatedTo(ChronoUnit.MILLIS), true, "drain failed")
                .afterFailedCleanup(Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.MILLIS));
        try (PostgresStateStore store = open(db)) {
            assertThat(store.load(m -> {})).isEmpty();
            key = store.cursorKey();
            lead(store, "a", () -> {});
            store.write(new StoreWrite(
                            machine("m1", MachineState.CONFIGURED),
                            new LastOperation(TransitionKind.CONFIGURE, "op-7", "c1", Optional.of(deadline), 0),
                            List.of(new MarkWrite("m1", "shard-a", new FenceMark(3, 9))),
                            null,
                            5,
                            7,
                            null))
                    .join();
            store.write(new StoreWrite(
                            machine("m2", MachineState.FAILED).toBuilder()
                                    .lastError("drain failed")
                                    .build(),
                            new LastOperation(TransitionKind.DRAIN, "op-8", "c1", Optional.of(deadline), 30),
                            failure,
                            List.of(),
                            null,
                            6,
                            8,
                            null))
                    .join();
            store.write(new StoreWrite(machine("m3", MachineState.SPECULATIVE), null, List.of(), null, 9, 8, null))
                    .join();
            store.write(StoreWrite.marksOnly(List.of(new MarkWrite("m1", "shard-a", new FenceMark(4, 1)))))
                    .join();
            store.write(StoreWrite.deletion("m3", null)).join();
        }
        try (PostgresStateStore again = open(db)) {
            List<StoredCounters> counters = new ArrayList<>();
            Map<String, StoredMachine> loaded = loadAll(again, counters);
            assertThat(again.cursorKey()).isEqualTo(key);
            assertThat(counters).containsExactly(new StoredCounters(9, 8));
            assertThat(loaded).containsOnlyKeys("m1", "m2");
            StoredMachine m1 = loaded.get("m1");
            assertThat(m1.machine()).isEqualTo(machine("m1", MachineState.CONFIGURED));
            assertThat(m1.revision()).isEqualTo(5);
            assertThat(m1.lastOperation().operationId()).isEqualTo("op-7");
            assertThat(m1.lastOperation().deadline()).contains(deadline);
            assertThat(m1.marks()).containsExactly(Map.entry("shard-a", new FenceMark(4, 1)));
            StoredMachine m2 = loaded.get("m2");
            assertThat(m2.failure()).isEqualTo(failure);
            assertThat(m2.lastOperation().graceSeconds()).isEqualTo(30);
        }
    }

    @Test
    void concurrentWritesAreGroupCommittedInOrderAndAllDurable() throws Exception {
        String db = postgres.createDatabase();
        int writes = 2_000;
        List<Integer> published = new CopyOnWriteArrayList<>();
        try (PostgresStateStore store = open(db)) {
            store.load(m -> {});
            lead(store, "a", () -> {});
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 1; i <= writes; i++) {
                int n = i;
                futures.add(store.write(new StoreWrite(
                        machine("m" + (i % 100), MachineState.SPECULATIVE),
                        null,
                        List.of(),
                        null,
                        i,
                        0,
                        () -> published.add(n))));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        }
        assertThat(published).hasSize(writes).isSorted();
        try (Connection c = postgres.connect(db);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT max(revision), count(*), (SELECT change_seq FROM provider_meta)" + " FROM machines")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(writes);
            assertThat(rs.getLong(2)).isEqualTo(100);
            assertThat(rs.getLong(3)).as("commits").isLessThan(writes);
        }
    }

    @Test
    void aDeposedLeadersWritesFailAndNeverReachTheDatabase() throws Exception {
        String db = postgres.createDatabase();
        AtomicInteger deposed = new AtomicInteger();
        try (PostgresStateStore first = open(db);
                PostgresStateStore second = open(db)) {
            first.load(m -> {});
            second.load(m -> {});
            long epoch1 = first.lease()
                    .tryAcquire("first:9000", Duration.ofMillis(300))
                    .orElseThrow();
            first.lead(epoch1, deposed::incrementAndGet);
            first.write(new StoreWrite(machine("m1", MachineState.SPECULATIVE), null, List.of(), null, 1, 0, null))
                    .join();
            assertThat(second.lease().tryAcquire("second:9000", LEASE))
                    .as("while the lease runs")
                    .isEmpty();
            assertThat(second.lease().holder()).contains(new LeaseHolder("first:9000", epoch1, true));
            Thread.sleep(400); // the first replica stops renewing, as a paused process does
            long epoch2 = second.lease().tryAcquire("second:9000", LEASE).orElseThrow();
            assertThat(epoch2).isGreaterThan(epoch1);
            second.lead(epoch2, () -> {});

            CompletableFuture<Void> late = first.write(
                    new StoreWrite(machine("m1", MachineState.CREATING), null, List.of(), null, 2, 0, null));
            assertThatThrownBy(late::join)
                    .isInstanceOf(CompletionException.class)
                    .hasMessageContaining("no longer leads")
                    .hasMessageContaining("second:9000");
            assertThat(first.lease().renew(epoch1, LEASE)).isFalse();
            second.write(new StoreWrite(machine("m2", MachineState.SPECULATIVE), null, List.of(), null, 3, 0, null))
                    .join();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> deposed.get() == 1);
        try (PostgresStateStore reader = open(db)) {
            Map<String, StoredMachine> loaded = loadAll(reader, new ArrayList<>());
            assertThat(loaded.get("m1").machine().state()).isEqualTo(MachineState.SPECULATIVE);
            assertThat(loaded).containsKey("m2");
        }
    }

    @Test
    void aStandbyWritesNothingAndFollowsTheLeadersChanges() throws Exception {
        String db = postgres.createDatabase();
        try (PostgresStateStore leader = open(db);
                PostgresStateStore standby = open(db)) {
            leader.load(m -> {});
            lead(leader, "leader", () -> {});
            leader.write(new StoreWrite(machine("m1", MachineState.SPECULATIVE), null, List.of(), null, 1, 0, null))
                    .join();
            leader.write(new StoreWrite(machine("m2", MachineState.SPECULATIVE), null, List.of(), null, 2, 0, null))
                    .join();
            assertThat(standby.load(m -> {})).isPresent();
            assertThatThrownBy(() -> standby.write(StoreWrite.marksOnlyNone()).join())
                    .hasMessageContaining("standby");

            Recording seen = new Recording();
            assertThat(standby.follow(seen)).isZero();
            leader.write(new StoreWrite(
                            machine("m1", MachineState.CREATING),
                            new LastOperation(TransitionKind.CREATE, "op-1", ""),
                            List.of(new MarkWrite("m1", "s", new FenceMark(1, 1))),
                            null,
                            3,
                            1,
                            null))
                    .join();
            leader.write(StoreWrite.marksOnly(List.of(new MarkWrite("m1", "t", new FenceMark(2, 5)))))
                    .join();
            leader.write(StoreWrite.deletion("m2", null)).join();
            assertThat(standby.follow(seen)).isEqualTo(2);
            assertThat(seen.changed).hasSize(1);
            StoredMachine m1 = seen.changed.get(0);
            assertThat(m1.machine().state()).isEqualTo(MachineState.CREATING);
            assertThat(m1.lastOperation().operationId()).isEqualTo("op-1");
            assertThat(m1.marks())
                    .containsOnly(Map.entry("s", new FenceMark(1, 1)), Map.entry("t", new FenceMark(2, 5)));
            assertThat(seen.removed).containsExactly("m2");
            assertThat(seen.counters).containsExactly(new StoredCounters(3, 1));
            assertThat(standby.follow(new Recording())).as("nothing new").isZero();

            standby.followFromStart();
            Recording everything = new Recording();
            standby.follow(everything);
            assertThat(everything.changed).extracting(s -> s.machine().id()).containsExactly("m1");
            assertThat(everything.removed).containsExactly("m2");
        }
    }

    @Test
    void aDatabaseOfSomethingElseOrOfANewerSchemaIsRefusedAndLeftAsItWas() throws Exception {
        String foreign = postgres.createDatabase();
        try (Connection c = postgres.connect(foreign);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE machines (id TEXT PRIMARY KEY, owner TEXT)");
            st.execute("INSERT INTO machines VALUES ('x', 'someone else')");
        }
        assertThatThrownBy(() -> open(foreign))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("\"machines\"")
                .hasMessageContaining("not a provider state database");
        try (Connection c = postgres.connect(foreign);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*), to_regclass('provider_meta') IS NULL FROM machines")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(1);
            assertThat(rs.getBoolean(2)).as("nothing created").isTrue();
        }

        String newer = postgres.createDatabase();
        open(newer).close();
        try (Connection c = postgres.connect(newer);
                Statement st = c.createStatement()) {
            st.execute("UPDATE provider_meta SET schema_version = 99");
        }
        assertThatThrownBy(() -> open(newer))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("schema version 99 is newer than this provider supports (1)");
    }

    @Test
    void anUnreachableDatabaseOrAWrongPasswordStopsOpeningWithOneLineAndNoPassword() throws Exception {
        String db = postgres.createDatabase();
        PostgresTarget right = PostgresTargets.of(postgres, db, Duration.ofSeconds(5));
        PostgresTarget wrong = new PostgresTarget(
                right.jdbcUrl(), right.user(), "not-the-password", right.description(), right.writeTimeout());
        assertThatThrownBy(() -> PostgresStateStore.open(wrong))
                .isInstanceOf(StoreException.class)
                .hasMessageStartingWith("--state " + right.description() + ": cannot connect: ")
                .hasMessageContaining("password authentication failed")
                .hasMessageNotContaining("not-the-password")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    /** What a follow handed over. */
    private static final class Recording implements StoreFollower {
        final List<StoredMachine> changed = new ArrayList<>();
        final List<String> removed = new ArrayList<>();
        final List<StoredCounters> counters = new ArrayList<>();

        @Override
        public void changed(StoredMachine machine) {
            changed.add(machine);
        }

        @Override
        public void removed(String machineId) {
            removed.add(machineId);
        }

        @Override
        public void counters(StoredCounters c) {
            counters.add(c);
        }
    }

    /** A machine's write that starts or ends one of its operations. */
    private static StoreWrite withOperation(String id, MachineState state, OperationRecord op, long revision) {
        return new StoreWrite(machine(id, state), null, null, op, List.of(), null, revision, revision, null);
    }

    @Test
    void operationHistoriesAreKeptNewestFirstCutToTenAndDroppedWithTheirMachine() throws Exception {
        String db = postgres.createDatabase();
        Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
        try (PostgresStateStore store = open(db)) {
            loadAll(store, new ArrayList<>());
            lead(store, "a", () -> {});
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
        }
        try (PostgresStateStore store = open(db)) {
            loadAll(store, new ArrayList<>());
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
}
