package dev.bigfleet.proxmox.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.FenceMark;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.MarkWrite;
import dev.bigfleet.proxmox.engine.store.StateStore;
import dev.bigfleet.proxmox.engine.store.StoreException;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredCounters;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import dev.bigfleet.proxmox.store.testkit.BaseStateStoreTest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQLite store on a file: the store contract ({@link BaseStateStoreTest}), and what a file adds to
 * it: its directories and permissions, text SQLite keeps to the byte, the lock a second process
 * meets, files of something else, and the journal folded into the tables.
 */
class SqliteStateStoreTest extends BaseStateStoreTest<Path> {
    @TempDir
    Path dir;

    private int states;

    @Override
    protected Path newState() {
        return dir.resolve("state-" + ++states).resolve("state.db");
    }

    @Override
    protected SqliteStateStore open(Path state) throws StoreException {
        return SqliteStateStore.open(state);
    }

    @Override
    protected String describe(Path state) {
        return state.toString();
    }

    /** The files as a crash leaves them: the database and its write-ahead log, committed, not folded. */
    @Override
    protected Path crashImage(StateStore store, Path state) throws Exception {
        Path image = dir.resolve("crash-" + ++states).resolve(state.getFileName());
        Files.createDirectories(image.getParent());
        Files.copy(state, image);
        Path wal = wal(state);
        if (Files.exists(wal)) {
            Files.copy(wal, wal(image));
        }
        return image;
    }

    private static Path wal(Path state) {
        return state.resolveSibling(state.getFileName() + "-wal");
    }

    @Override
    protected void makeSchemaNewer(Path state) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + state);
                Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=DELETE");
            st.execute("PRAGMA user_version=" + (StateSchema.VERSION + 1));
        }
    }

    /** The second half of the file lost, as a torn copy or a full disk leaves it. */
    @Override
    protected void damage(Path state) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + state);
                Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=DELETE"); // fold the WAL into the main file
        }
        byte[] whole = Files.readAllBytes(state);
        Files.write(state, Arrays.copyOf(whole, whole.length / 2));
    }

    /** The bytes of the database and of its write-ahead log. */
    @Override
    protected Object contents(Path state) throws Exception {
        Map<String, ByteBuffer> files = new TreeMap<>();
        for (Path p : List.of(state, wal(state))) {
            if (Files.exists(p)) {
                files.put(p.getFileName().toString(), ByteBuffer.wrap(Files.readAllBytes(p)));
            }
        }
        return files;
    }

    /** A machine whose maps hold text only SQLite keeps (PostgreSQL's text has no NUL). */
    private static Machine withNul(String id) {
        return machine(id, MachineState.CONFIGURED).toBuilder()
                .shardMetadata(Map.of("nul", "a\u0000b", "ünï", "\u0001", "e", ""))
                .build();
    }

    /** What a store handed over when loaded: its machines, oldest change first, and its counters. */
    private record InOrder(List<StoredMachine> machines, long revision, long lastOperationNumber) {}

    private static InOrder loadInOrder(SqliteStateStore store) throws StoreException {
        List<StoredMachine> machines = new ArrayList<>();
        StoredCounters counters = store.load(machines::add).orElseThrow();
        machines.sort(Comparator.comparingLong(StoredMachine::revision));
        return new InOrder(machines, counters.revision(), counters.lastOperationNumber());
    }

    @Test
    void theFileIsCreatedWithItsDirectoriesPrivateAndKeepsNulCharacters() throws Exception {
        Path state = dir.resolve("nested/dir/state.db");
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.load(m -> {});
            store.write(new StoreWrite(withNul("m1"), null, List.of(), null, 1, 0, null))
                    .join();
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
                .isEqualTo("rw-------");
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            assertThat(loadInOrder(store).machines())
                    .singleElement()
                    .satisfies(m -> assertThat(m.machine()).isEqualTo(withNul("m1")));
        }
    }

    @SuppressWarnings("try") // the first store only holds the lock while the block runs
    @Test
    void aSecondOpenOfTheSameFileIsRefusedNamingIt() throws Exception {
        Path state = dir.resolve("s.db");
        try (SqliteStateStore first = SqliteStateStore.open(state)) {
            assertThatThrownBy(() -> SqliteStateStore.open(state))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining(state.toString())
                    .hasMessageContaining("locked by another provider process");
        }
        SqliteStateStore.open(state).close();
    }

    private void assertRefusedAndUntouched(Path file, String expected) throws Exception {
        byte[] before = Files.readAllBytes(file);
        assertThatThrownBy(() -> SqliteStateStore.open(file))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void aFileThatIsNotADatabaseIsRefusedAndLeftUntouched() throws Exception {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "these are my notes, not a database\n");
        assertRefusedAndUntouched(file, "not a provider state database");
    }

    @Test
    void aForeignSqliteDatabaseIsRefusedAndLeftUntouched() throws Exception {
        Path file = dir.resolve("other.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (x)");
            st.execute("INSERT INTO t VALUES (1)");
        }
        assertRefusedAndUntouched(file, "not a provider state database");
    }

    @Test
    void aDatabaseWithGarbledPagesIsRefusedAndLeftUntouched() throws Exception {
        Path file = dir.resolve("s.db");
        try (SqliteStateStore store = SqliteStateStore.open(file)) {
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 1; i <= 2000; i++) {
                writes.add(store.write(new StoreWrite(
                        machine("machine-" + i, MachineState.SPECULATIVE), null, List.of(), null, i, 0, null)));
            }
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = c.createStatement()) {
            st.execute("PRAGMA journal_mode=DELETE"); // fold the WAL into the main file
        }
        byte[] whole = Files.readAllBytes(file);
        Path corrupt = dir.resolve("corrupt.db");
        byte[] garbled = whole.clone();
        byte[] noise = "garbage garbage garbage garbage".getBytes(StandardCharsets.US_ASCII);
        for (int at = 4096 * 2; at + noise.length < garbled.length; at += 4096) {
            System.arraycopy(noise, 0, garbled, at + 100, noise.length);
        }
        Files.write(corrupt, garbled);
        assertRefusedAndUntouched(corrupt, "damaged");
    }

    @Test
    void theJournalIsFoldedIntoTheTablesAndNothingIsLost() throws Exception {
        Path state = dir.resolve("s.db");
        int machines = (int) GroupCommitWriter.FOLD_WHEN_IDLE_AT + 500;
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int i = 1; i <= machines; i++) {
                writes.add(store.write(new StoreWrite(
                        machine("m" + i, MachineState.SPECULATIVE),
                        null,
                        List.of(new MarkWrite("m" + i, "s", new FenceMark(1, i))),
                        null,
                        i,
                        0,
                        null)));
            }
            // a later change of the same machine wins, and a retired one stays gone
            writes.add(store.write(new StoreWrite(
                    machine("m1", MachineState.IDLE),
                    null,
                    List.of(new MarkWrite("m1", "s", new FenceMark(2, 0))),
                    null,
                    machines + 1,
                    0,
                    null)));
            writes.add(store.write(new StoreWrite(null, null, List.of(), "m2", 0, 0, null)));
            CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
            // the writer folds once it has been idle for a while; a write after that proves the fold is done
            Thread.sleep(GroupCommitWriter.IDLE_BEFORE_FOLD.toMillis() + 1_000);
            store.write(StoreWrite.marksOnlyNone()).join();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + state);
                    Statement st = c.createStatement();
                    var rs =
                            st.executeQuery("SELECT (SELECT count(*) FROM journal), (SELECT count(*) FROM machines)")) {
                rs.next();
                assertThat(rs.getLong(1))
                        .as("journal rows left after the idle fold")
                        .isZero();
                assertThat(rs.getLong(2)).isEqualTo(machines - 1);
            }
        }
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            InOrder loaded = loadInOrder(store);
            assertThat(loaded.machines()).hasSize(machines - 1);
            StoredMachine m1 = loaded.machines().stream()
                    .filter(m -> m.machine().id().equals("m1"))
                    .findFirst()
                    .orElseThrow();
            assertThat(m1.machine().state()).isEqualTo(MachineState.IDLE);
            assertThat(m1.revision()).isEqualTo(machines + 1);
            assertThat(m1.marks()).containsEntry("s", new FenceMark(2, 0));
            assertThat(loaded.machines()).noneMatch(m -> m.machine().id().equals("m2"));
            assertThat(loaded.revision()).isEqualTo(machines + 1);
        }
    }

    @Test
    void aCrashImageWithAnUnfoldedJournalLoadsTheLatestRowOfEachMachine() throws Exception {
        Path state = dir.resolve("s.db");
        Path image = dir.resolve("image/s.db");
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.write(new StoreWrite(machine("a", MachineState.SPECULATIVE), null, List.of(), null, 1, 0, null))
                    .join();
            store.write(new StoreWrite(machine("b", MachineState.SPECULATIVE), null, List.of(), null, 2, 0, null))
                    .join();
            store.write(new StoreWrite(machine("c", MachineState.SPECULATIVE), null, List.of(), null, 3, 0, null))
                    .join();
        }
        // the tables now hold a, b and c; what follows stays in the journal of the image
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            LastOperation op = new LastOperation(TransitionKind.CREATE, "op-1", "");
            store.write(new StoreWrite(
                            machine("a", MachineState.CREATING),
                            op,
                            List.of(new MarkWrite("a", "s", new FenceMark(1, 1))),
                            null,
                            4,
                            1,
                            null))
                    .join();
            store.write(new StoreWrite(machine("a", MachineState.IDLE), op, List.of(), null, 5, 1, null))
                    .join();
            store.write(new StoreWrite(null, null, List.of(), "b", 0, 0, null)).join();
            store.write(new StoreWrite(null, null, List.of(), "c", 0, 0, null)).join();
            store.write(new StoreWrite(machine("c", MachineState.SPECULATIVE), null, List.of(), null, 6, 1, null))
                    .join();
            store.write(new StoreWrite(machine("d", MachineState.SPECULATIVE), null, List.of(), null, 7, 1, null))
                    .join();
            // the files as a crash would leave them: committed, not folded
            Files.createDirectories(image.getParent());
            Files.copy(state, image);
            Files.copy(state.resolveSibling("s.db-wal"), image.resolveSibling("s.db-wal"));
        }
        try (SqliteStateStore store = SqliteStateStore.open(image)) {
            InOrder loaded = loadInOrder(store);
            assertThat(loaded.machines())
                    .extracting(m -> m.machine().id() + "@" + m.revision())
                    .as("each machine once, oldest change first; b retired, c retired and added again")
                    .containsExactly("a@5", "c@6", "d@7");
            StoredMachine a = loaded.machines().get(0);
            assertThat(a.machine()).isEqualTo(machine("a", MachineState.IDLE));
            assertThat(a.lastOperation()).isEqualTo(new LastOperation(TransitionKind.CREATE, "op-1", ""));
            assertThat(a.marks()).containsEntry("s", new FenceMark(1, 1));
            assertThat(loaded.revision()).isEqualTo(7);
            assertThat(loaded.lastOperationNumber()).isEqualTo(1);
        }
    }
}
