package com.example.bigfleet.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.TestBlob;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With {@code state-file}, the VMs outlive the provider process. */
class StateFileTest {
    @TempDir
    Path dir;

    private ProxmoxBackend backend(Path stateFile) {
        return new ExampleBackendFactory().create(ExampleFixture.context(
                Map.of("state-file", stateFile.toString(), "boot-delay", "0s"), ApiCallRecorder.NONE));
    }

    private static CreatedVm create(ProxmoxBackend backend, String machine) throws Exception {
        return backend.cloneAndStart(new ExampleFixture().cloneSpec(machine), TestOperationContext.forMachine(machine));
    }

    @Test
    void vmsTheirPowerAndTheirClusterSurviveARestart() throws Exception {
        Path file = dir.resolve("vms.json");
        CreatedVm a;
        CreatedVm b;
        try (ProxmoxBackend before = backend(file)) {
            a = create(before, "m-a");
            b = create(before, "m-b");
            before.applyBootstrap(new BootstrapSpec(new VmTarget("m-a", a.node(), a.vmid()), "prod-1",
                    TestBlob.blob()), TestOperationContext.forMachine("m-a"));
            ((ExampleBackend) before).substrate().setRunning(b.vmid(), false);
        }

        try (ProxmoxBackend after = backend(file)) {
            assertThat(after.describeManaged()).containsExactly(
                    new ManagedVm(Optional.of("m-a"), a.node(), a.vmid(), true),
                    new ManagedVm(Optional.of("m-b"), b.node(), b.vmid(), false));
            after.readiness().orElseThrow().awaitNodeReady(new VmTarget("m-a", a.node(), a.vmid()), "prod-1",
                    TestOperationContext.forMachine("m-a"));
            assertThat(create(after, "m-a")).as("a retried Create after the restart").isEqualTo(a);
            assertThat(create(after, "m-c").vmid()).as("VMIDs go on after the restart").isGreaterThan(b.vmid());
        }
    }

    @Test
    void aDestroyedVmStaysDestroyedAfterARestart() throws Exception {
        Path file = dir.resolve("vms.json");
        try (ProxmoxBackend before = backend(file)) {
            CreatedVm vm = create(before, "m-gone");
            before.destroy(new VmTarget("m-gone", vm.node(), vm.vmid()), TestOperationContext.forMachine("m-gone"));
        }

        try (ProxmoxBackend after = backend(file)) {
            assertThat(after.describeManaged()).isEmpty();
        }
    }

    @Test
    void theFileIsJsonWrittenByThePluginsOwnJacksonAndHoldsNoBlob() throws Exception {
        Path file = dir.resolve("vms.json");
        try (ProxmoxBackend backend = backend(file)) {
            CreatedVm vm = create(backend, "m-json");
            backend.applyBootstrap(new BootstrapSpec(new VmTarget("m-json", vm.node(), vm.vmid()), "prod-1",
                    TestBlob.blob()), TestOperationContext.forMachine("m-json"));
        }

        String json = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(json).contains("\"written_by\" : \"backend-example with jackson-databind 2.23.0\"")
                .contains("\"machine_id\" : \"m-json\"").contains("\"cluster_id\" : \"prod-1\"");
        TestBlob.assertNotQuoted(json);
        assertThat(json).doesNotContain("kubeadm");
    }

    @Test
    void aFileThatIsNotAStateFileIsRefusedOnOneLineAndLeftAsItIs() throws Exception {
        Path file = dir.resolve("notes.json");
        String notes = "{\"shopping\": [\"milk\",\n \"eggs\"]}\n";
        Files.writeString(file, notes, StandardCharsets.UTF_8);

        assertThatThrownBy(() -> backend(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--backend-opt state-file " + file + ": not a state file of the example"
                        + " backend")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(notes);
    }

    @Test
    void aDirectoryIsRefusedBeforeAnythingStarts() {
        assertThatThrownBy(() -> new ExampleBackendFactory().validate(
                dev.bigfleet.proxmox.spi.BackendOptions.of(Map.of("state-file", dir.toString()))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--backend-opt state-file: " + dir + " is a directory, not a file");
    }

    @Test
    void withoutAStateFileNothingIsWritten() throws Exception {
        try (ProxmoxBackend backend = new ExampleBackendFactory().create(ExampleFixture.context(
                Map.of("boot-delay", "0s"), ApiCallRecorder.NONE))) {
            create(backend, "m-memory");
        }
        assertThat(List.of(dir.toFile().list())).isEmpty();
    }
}
