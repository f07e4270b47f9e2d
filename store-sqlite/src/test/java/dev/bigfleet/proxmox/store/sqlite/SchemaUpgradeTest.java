package dev.bigfleet.proxmox.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.HostRef;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import dev.bigfleet.proxmox.api.TransitionKind;
import dev.bigfleet.proxmox.engine.store.FailureRecord;
import dev.bigfleet.proxmox.engine.store.LastOperation;
import dev.bigfleet.proxmox.engine.store.OperationOutcome;
import dev.bigfleet.proxmox.engine.store.OperationRecord;
import dev.bigfleet.proxmox.engine.store.StoreWrite;
import dev.bigfleet.proxmox.engine.store.StoredMachine;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * How a file of schema version 1 or 2 is upgraded in place to version 3's deadlines, grace periods,
 * failures and operation history (that every store keeps them is {@link
 * dev.bigfleet.proxmox.store.testkit.BaseStateStoreTest}'s).
 */
class SchemaUpgradeTest {
    @TempDir
    Path dir;

    private static Machine machine(String id, MachineState state) {
        return Machine.builder(id)
                .state(state)
                .host(new HostRef("proxmox", "n1/101"))
                .instanceType("pve.small")
                .zone("n1")
                .lastError(state == MachineState.FAILED ? "drain failed: PDB" : "")
                .build();
    }

    private static List<StoredMachine> load(SqliteStateStore store) throws Exception {
        List<StoredMachine> out = new ArrayList<>();
        store.load(out::add);
        return out;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void anOlderFileIsUpgradedInPlaceAndKeepsItsMachines(int version) throws Exception {
        Path state = dir.resolve("v" + version + ".db");
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + state);
                Statement st = db.createStatement();
                InputStream schema = getClass().getResourceAsStream("/schema-v" + version + ".sql")) {
            String sql = new String(schema.readAllBytes(), StandardCharsets.UTF_8);
            String body = String.join(
                    "\n", sql.lines().filter(l -> !l.startsWith("--")).toList());
            for (String statement : body.split("\n;\n?", -1)) {
                if (!statement.isBlank()) {
                    st.execute(statement);
                }
            }
            st.execute("INSERT INTO meta (key, value) VALUES ('cursor_key', x'00112233445566778899aabbccddeeff')");
            st.execute("INSERT INTO machines (id, revision, state, host_provider, host_ref, instance_type, zone,"
                    + " capacity_type, price_per_hour, interruption_probability, resources, labels, allocatable,"
                    + " last_error, cluster, shard_metadata, last_op_kind, last_op_id, last_op_cluster)"
                    + " VALUES ('old', 5, 'IDLE', 'proxmox', 'n1/101', 'pve.small', 'n1',"
                    + " 'ON_DEMAND', 0.01, 0, '{}', '{}', '{}', '', '', '{}', 'CREATE', 'op-5', '')");
            st.execute("UPDATE meta SET value = 5 WHERE key IN ('revision', 'last_operation_number')");
            st.execute("PRAGMA application_id=" + StateSchema.APPLICATION_ID);
            st.execute("PRAGMA user_version=" + version);
        }

        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            List<StoredMachine> machines = load(store);
            assertThat(machines).singleElement().satisfies(m -> {
                assertThat(m.machine().id()).isEqualTo("old");
                assertThat(m.machine().state()).isEqualTo(MachineState.IDLE);
                assertThat(m.lastOperation()).isEqualTo(new LastOperation(TransitionKind.CREATE, "op-5", ""));
                assertThat(m.failure()).isNull();
            });
            store.write(new StoreWrite(
                            machine("old", MachineState.FAILED),
                            null,
                            FailureRecord.of(TransitionKind.CREATE, Instant.now(), false, "x"),
                            List.of(),
                            null,
                            6,
                            5,
                            null))
                    .join();
            // an operation the older file never recorded ends: its history holds the end alone
            store.write(new StoreWrite(
                            machine("old", MachineState.FAILED),
                            new LastOperation(TransitionKind.CREATE, "op-5", ""),
                            null,
                            OperationRecord.ended(
                                    TransitionKind.CREATE, "op-5", Instant.EPOCH, OperationOutcome.ERROR, "x"),
                            List.of(),
                            null,
                            7,
                            5,
                            null))
                    .join();
        }
        try (SqliteStateStore store = SqliteStateStore.open(state)) {
            load(store);
            assertThat(store.operations("old"))
                    .containsExactly(new OperationRecord(
                            TransitionKind.CREATE,
                            "op-5",
                            Optional.empty(),
                            Optional.of(Instant.EPOCH),
                            OperationOutcome.ERROR,
                            "x"));
        }
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + state);
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery("PRAGMA user_version")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(StateSchema.VERSION);
        }
    }
}
