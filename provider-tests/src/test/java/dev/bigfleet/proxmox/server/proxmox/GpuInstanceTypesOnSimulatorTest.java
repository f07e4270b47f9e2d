package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPU instance types through Proxmox's PCI resource mappings, on the real backend against the
 * simulator: a type naming a mapping is cloned with {@code hostpci0: mapping=...,pcie=1} and the q35
 * machine, reports the GPU in its allocatable, and a node whose mapping has two devices holds two
 * such VMs and refuses the third at once; a mapping missing on an offering's node stops startup.
 */
@Tag("recovery")
class GpuInstanceTypesOnSimulatorTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String TYPES = """
            {"pve.gpu": {"vcpu": 2, "memory_mib": 4096, "allocatable": {"nvidia.com/gpu": "1"},
                         "pci": [{"mapping": "gpu-a100", "pcie": true}]}}
            """;
    private static final String OFFERINGS = """
            [{"instance_type": "pve.gpu", "zone": "pve1", "capacity_type": "on_demand", "count": 3}]
            """;

    @TempDir
    Path dir;

    private List<String> files() throws Exception {
        return List.of(
                "--instance-types",
                        Files.writeString(dir.resolve("types.json"), TYPES).toString(),
                "--offerings",
                        Files.writeString(dir.resolve("offerings.json"), OFFERINGS)
                                .toString());
    }

    @Test
    void aNodeHoldsAsManyGpuVmsAsItsMappingHasDevicesAndNoMore() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        .nodes("pve1", "pve2")
                        .customize(b -> b.pciMapping("gpu-a100", "pve1", 2).pciMapping("gpu-a100", "pve2", 1))
                        .start();
                TestingProvider provider = TestingProvider.builder()
                        .proxmox(cluster)
                        .flags(files())
                        .build()) {
            LifecycleClient client = provider.client();
            List<String> ids =
                    client.list().stream().map(Machine::getId).sorted().toList();
            assertThat(ids).hasSize(3);
            assertThat(client.get(ids.get(0)).getAllocatable().getResourcesMap())
                    .containsEntry("nvidia.com/gpu", "1")
                    .containsEntry("cpu", "2");

            client.create(ids.get(0));
            client.create(ids.get(1));
            client.awaitAll(ids.subList(0, 2), MachineState.MACHINE_STATE_IDLE, WAIT);
            for (String id : ids.subList(0, 2)) {
                String ref = client.get(id).getHost().getRef();
                VmView vm = cluster.simulator()
                        .vm(Integer.parseInt(ref.substring(ref.indexOf('/') + 1)))
                        .orElseThrow();
                assertThat(vm.config())
                        .containsEntry("hostpci0", "mapping=gpu-a100,pcie=1")
                        .containsEntry("machine", "q35");
            }

            client.create(ids.get(2));
            Machine third = client.awaitState(ids.get(2), MachineState.MACHINE_STATE_FAILED, WAIT);
            assertThat(third.getLastError())
                    .contains("no free device of PCI mapping gpu-a100")
                    .contains("2 of its 2");
            assertThat(cluster.clonesByMachine()).doesNotContainKey(ids.get(2));
        }
    }

    @Test
    void aMappingWithoutADeviceOnAnOfferingsNodeStopsStartupNamingIt() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .nodes("pve1", "pve2")
                .customize(b -> b.pciMapping("gpu-a100", "pve2", 1))
                .start()) {
            TestingProvider.Builder builder =
                    TestingProvider.builder().proxmox(cluster).flags(files());
            Throwable refused = org.assertj.core.api.Assertions.catchThrowable(builder::build);
            assertThat(refused).isNotNull();
            assertThat(String.valueOf(refused.getMessage()) + refused)
                    .contains("PCI mapping gpu-a100 maps 0 device(s) on node pve1");
        }
    }
}
