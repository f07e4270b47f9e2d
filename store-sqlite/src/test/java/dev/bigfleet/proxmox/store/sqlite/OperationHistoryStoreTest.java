package dev.bigfleet.proxmox.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operation histories in the state file's journal and in the table it is folded into: read back
 * newest first before and after the fold, cut to the newest ten of each machine by the fold, and
 * gone with a retired machine. What every store does with them is {@link
 * dev.bigfleet.proxmox.store.testkit.BaseStateStoreTest}'s.
 */
class OperationHistoryStoreTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @TempDir
    Path dir;

    private long revision;

    private static Machine machine(String id, MachineState state) {
        return Machine.builder(id)
                .state(state)
                .host(state == MachineState.SPECULATIVE ? HostRef.NONE : new HostRef("proxmox", "n1/101"))
                .instanceType("pve.small")
                .zone("n1")
                .build();
    }

    /** Writes an operation's start and its end, as the engine does at accept and at the outcome. */
    private List<CompletableFuture<Void>> run(
            SqliteStateStore store, String id, TransitionKind kind, int n, OperationOutcome outcome) {
        String opId = "op-" + n;
        LastOperation last = new LastOperation(kind, opId, "");
        Instant start = T0.plusSeconds(10L * n);
        return List.of(
                store.write(new StoreWrite(
                        machine(id, kind.transitional()),
                        last,
                        null,
                        OperationRecord.started(kind, opId, start),
                        List.of(),
                        null,
                        ++revision,
                        n,
                        null)),
                store.write(new StoreWrite(
                        machine(id, outcome == OperationOutcome.SUCCESS ? kind.target() : MachineState.FAILED),
                        last,
                        null,
                        OperationRecord.ended(
                                kind,
                                opId,
                                start.plusSeconds(3),
                                outcome,
                                outcome == OperationOutcome.SUCCESS ? "" : kind.label() + " failed: hook exited 1"),
                        List.of(),
                        null,
                        ++revision,
                        n,
                        null)));
    }

    private static void awaitAll(List<CompletableFuture<Void>> writes) {
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
    }

    private static long rows(Path state, String table) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + state);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void operationsAreReadNewestFirstBeforeAndAfterTheFoldAndAfterReopening() throws Exception {
        Path state = dir.resolve("s.db");
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.load(m -> {});
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            writes.addAll(run(store, "m1", TransitionKind.CREATE, 1, OperationOutcome.SUCCESS));
            writes.addAll(run(store, "m1", TransitionKind.CONFIGURE, 2, OperationOutcome.ERROR));
            writes.add(store.write(new StoreWrite(
                    machine("m2", MachineState.CREATING),
                    new LastOperation(TransitionKind.CREATE, "op-3", ""),
                    null,
                    OperationRecord.started(TransitionKind.CREATE, "op-3", T0),
                    List.of(),
                    null,
                    ++revision,
                    3,
                    null)));
            awaitAll(writes);
            assertThat(rows(state, "operations")).as("nothing folded yet").isZero();

            List<OperationRecord> m1 = store.operations("m1");
            assertThat(m1).extracting(OperationRecord::operationId).containsExactly("op-2", "op-1");
            assertThat(m1.get(0))
                    .isEqualTo(new OperationRecord(
                            TransitionKind.CONFIGURE,
                            "op-2",
                            Optional.of(T0.plusSeconds(20)),
                            Optional.of(T0.plusSeconds(23)),
                            OperationOutcome.ERROR,
                            "configure failed: hook exited 1"));
            assertThat(m1.get(1).outcome()).isEqualTo(OperationOutcome.SUCCESS);
            assertThat(store.operations("m2"))
                    .containsExactly(OperationRecord.started(TransitionKind.CREATE, "op-3", T0));
            assertThat(store.operations("m3")).isEmpty();
        }
        // a graceful close folds the journal into the table
        assertThat(rows(state, "journal")).isZero();
        assertThat(rows(state, "operations")).isEqualTo(3);
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.load(m -> {});
            assertThat(store.operations("m1"))
                    .extracting(OperationRecord::operationId)
                    .containsExactly("op-2", "op-1");
            // m2's Create ends in this process: its end meets the start folded before, whose time it keeps
            revision = 10;
            awaitAll(List.of(store.write(new StoreWrite(
                    machine("m2", MachineState.IDLE),
                    new LastOperation(TransitionKind.CREATE, "op-3", ""),
                    null,
                    OperationRecord.ended(
                            TransitionKind.CREATE, "op-3", T0.plusSeconds(9), OperationOutcome.SUCCESS, ""),
                    List.of(),
                    null,
                    ++revision,
                    3,
                    null))));
            assertThat(store.operations("m2"))
                    .containsExactly(new OperationRecord(
                            TransitionKind.CREATE,
                            "op-3",
                            Optional.of(T0),
                            Optional.of(T0.plusSeconds(9)),
                            OperationOutcome.SUCCESS,
                            ""));
        }
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.load(m -> {});
            assertThat(store.operations("m2").get(0).startedAt()).hasValue(T0);
            assertThat(store.operations("m2").get(0).outcome()).isEqualTo(OperationOutcome.SUCCESS);
        }
    }

    @Test
    void eachMachineKeepsItsNewestTenThroughTheFoldAndARetiredMachineKeepsNone() throws Exception {
        Path state = dir.resolve("s.db");
        int n = 0;
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.load(m -> {});
            List<CompletableFuture<Void>> writes = new ArrayList<>();
            for (int lap = 0; lap < 8; lap++) {
                writes.addAll(run(store, "busy", TransitionKind.CREATE, ++n, OperationOutcome.SUCCESS));
                writes.addAll(run(store, "busy", TransitionKind.DELETE, ++n, OperationOutcome.SUCCESS));
                writes.addAll(run(store, "retired", TransitionKind.CREATE, ++n, OperationOutcome.SUCCESS));
            }
            awaitAll(writes);
            assertThat(store.operations("busy"))
                    .as("read from the journal, cut to the newest ten")
                    .hasSize(OperationRecord.KEPT_PER_MACHINE)
                    .first()
                    .satisfies(op -> assertThat(op.operationId()).isEqualTo("op-23"));
            awaitAll(List.of(store.write(StoreWrite.deletion("retired", null))));
            assertThat(store.operations("retired")).isEmpty();
        }
        assertThat(rows(state, "operations"))
                .as("the fold kept ten of busy's sixteen and none of the retired machine's")
                .isEqualTo(OperationRecord.KEPT_PER_MACHINE);
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            store.load(m -> {});
            List<OperationRecord> busy = store.operations("busy");
            assertThat(busy).hasSize(OperationRecord.KEPT_PER_MACHINE);
            assertThat(busy.get(0).operationId()).isEqualTo("op-23");
            assertThat(busy.get(0).kind()).isEqualTo(TransitionKind.DELETE);
            assertThat(busy.get(9).operationId()).isEqualTo("op-10");
            assertThat(busy).allSatisfy(op -> assertThat(op.startedAt()).isPresent());
            assertThat(store.operations("retired")).isEmpty();
        }
    }
}
