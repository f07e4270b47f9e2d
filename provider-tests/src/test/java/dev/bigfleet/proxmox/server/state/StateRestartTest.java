package dev.bigfleet.proxmox.server.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.ConfigureRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.server.startup.StartupException;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restarting on a state file: offerings that changed meanwhile, the file lock, and no secret on disk. */
class StateRestartTest {
    private static final String BLOB = "bootstrap-secret-that-must-never-reach-the-disk";

    @TempDir
    Path dir;

    private static TestingProvider start(Path state, int seedCount) throws Exception {
        return TestingProvider.builder()
                .fakeLatency(Duration.ZERO)
                .seedCount(seedCount)
                .sqliteState(state)
                .noHttp()
                .build();
    }

    private static Map<String, Machine> inventory(CapacityProviderBlockingStub stub) {
        return stub.list(ListFilter.getDefaultInstance()).getMachinesList().stream()
                .collect(Collectors.toMap(Machine::getId, m -> m));
    }

    @Test
    void offeringsThatChangedWhileDownAddAndRetireSlotsButKeepMachinesWithVms() throws Exception {
        Path state = dir.resolve("sub/dir/state.db");
        // the highest-numbered slot of an offering is the one a smaller seed count retires
        String kept = "proxmox/OnDemand/pve.large/pve-a/001";
        try (TestingProvider p = start(state, 8)) {
            CapacityProviderBlockingStub stub = p.grpc();
            stub.create(CreateRequest.newBuilder().setMachineId(kept).build());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> stub.get(MachineRef.newBuilder().setId(kept).build())
                                    .getState()
                            == MachineState.MACHINE_STATE_IDLE);
            stub.configure(ConfigureRequest.newBuilder()
                    .setMachineId(kept)
                    .setClusterId("c")
                    .setBootstrapBlob(ByteString.copyFromUtf8(BLOB))
                    .build());
        }
        assertThat(Files.exists(state)).isTrue();

        try (TestingProvider p = start(state, 4)) {
            Map<String, Machine> after = inventory(p.grpc());
            // 4 default slots remain, the retired Speculative ones are gone, the machine with a VM stays
            assertThat(after).containsKey(kept);
            assertThat(after.get(kept).getState())
                    .isIn(MachineState.MACHINE_STATE_CONFIGURED, MachineState.MACHINE_STATE_FAILED);
            assertThat(after.values().stream().filter(m -> m.getState() == MachineState.MACHINE_STATE_SPECULATIVE))
                    .hasSize(4);
            assertThat(after).doesNotContainKey("proxmox/OnDemand/pve.xlarge/pve-b/001");
        }

        try (TestingProvider p = start(state, 12)) {
            Map<String, Machine> after = inventory(p.grpc());
            assertThat(after).containsKeys(kept, "proxmox/OnDemand/pve.xlarge/pve-b/002");
            assertThat(after).hasSize(12 + 1 - 1); // 12 slots; the kept machine is one of them
        }

        for (Path file : filesOf(state)) {
            assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1))
                    .as("%s holds no bootstrap blob", file)
                    .doesNotContain(BLOB);
        }
    }

    private Path[] filesOf(Path state) throws Exception {
        try (Stream<Path> files = Files.list(state.getParent())) {
            return files.filter(Files::isRegularFile).toArray(Path[]::new);
        }
    }

    @Test
    void aSecondProviderOnTheSameStateIsRefusedNamingTheFile() throws Exception {
        Path state = dir.resolve("state.db");
        try (TestingProvider first = start(state, 2)) {
            assertThatThrownBy(() -> start(state, 2))
                    .isInstanceOf(StartupException.class)
                    .hasMessageContaining(state.toString())
                    .hasMessageContaining("locked");
            int machines = first.grpc().list(ListFilter.getDefaultInstance()).getMachinesCount();
            assertThat(machines).isEqualTo(2);
        }
    }
}
