package dev.bigfleet.proxmox.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.LeaderLease.LeaseHolder;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreFollower;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import dev.bigfleet.proxmox.store.testkit.BaseStateStoreTest;
import dev.bigfleet.proxmox.testing.TestingPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL store against a real PostgreSQL server: the store contract ({@link
 * BaseStateStoreTest}), and what replicas add to it: group commit in few transactions, fencing by the
 * lease's epoch, standbys following the leader, and refusals of a foreign or unreachable database.
 */
class PostgresStateStoreTest extends BaseStateStoreTest<String> {
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static TestingPostgres postgres;

    @BeforeAll
    static void startPostgres() throws Exception {
        postgres = TestingPostgres.shared();
    }

    @Override
    protected String newState() throws Exception {
        return postgres.createDatabase();
    }

    @Override
    protected PostgresStateStore open(String db) throws StoreException {
        return PostgresStateStore.open(PostgresTargets.of(postgres, db, Duration.ofSeconds(5)));
    }

    @Override
    protected void startWriting(StateStore store) throws StoreException {
        lead((PostgresStateStore) store, "writer", () -> {});
    }

    @Override
    protected String describe(String db) {
        return postgres.stateUrl(db);
    }

    /**
     * The provider's connections end as its process does; its lease is left to expire (here at
     * once, as if the restart came after the lease ran out).
     */
    @Override
    protected String crashImage(StateStore store, String db) throws Exception {
        try (Connection c = postgres.connect("postgres");
                PreparedStatement st = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        + " WHERE datname = ? AND pid <> pg_backend_pid()")) {
            st.setString(1, db);
            st.execute();
        }
        try (Connection c = postgres.connect(db);
                Statement st = c.createStatement()) {
            st.execute("UPDATE leader_lease SET expires_at = clock_timestamp()");
        }
        return db;
    }

    @Override
    protected void makeSchemaNewer(String db) throws Exception {
        try (Connection c = postgres.connect(db);
                Statement st = c.createStatement()) {
            st.execute("UPDATE provider_meta SET schema_version = 99");
        }
    }

    @Override
    protected void damage(String db) throws Exception {
        try (Connection c = postgres.connect(db);
                Statement st = c.createStatement()) {
            st.execute("DELETE FROM provider_meta");
        }
    }

    /** Every row of every table, as text. */
    @Override
    protected Object contents(String db) throws Exception {
        Map<String, List<String>> tables = new TreeMap<>();
        try (Connection c = postgres.connect(db);
                Statement st = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet rs =
                    st.executeQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            for (String table : names) {
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SELECT t::text FROM " + table + " t ORDER BY 1")) {
                    while (rs.next()) {
                        rows.add(rs.getString(1));
                    }
                }
                tables.put(table, rows);
            }
        }
        return tables;
    }

    /** Takes the lease and leads with it; returns the epoch. */
    private static long lead(PostgresStateStore store, String name, Runnable onDeposed) throws StoreException {
        OptionalLong epoch = store.lease().tryAcquire(name, LEASE);
        assertThat(epoch).as("lease for %s", name).isPresent();
        store.lead(epoch.getAsLong(), onDeposed);
        return epoch.getAsLong();
    }

    private static Map<String, StoredMachine> loadAll(PostgresStateStore store) throws StoreException {
        Map<String, StoredMachine> machines = new HashMap<>();
        store.load(m -> machines.put(m.machine().id(), m));
        return machines;
    }

    @Test
    void concurrentWritesAreGroupCommittedInFewerTransactions() throws Exception {
        String db = postgres.createDatabase();
        int writes = 2_000;
        try (PostgresStateStore store = open(db)) {
            store.load(m -> {});
            lead(store, "a", () -> {});
            List<CompletableFuture<Void>> futures = new ArrayList<>();
            for (int i = 1; i <= writes; i++) {
                futures.add(store.write(new StoreWrite(
                        machine("m" + (i % 100), MachineState.SPECULATIVE), null, List.of(), null, i, 0, null)));
            }
            CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        }
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
            Map<String, StoredMachine> loaded = loadAll(reader);
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
    void aDatabaseOfSomethingElseIsRefusedAndLeftAsItWas() throws Exception {
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
}
