package com.example.bigfleet.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOption;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.BackendSpi;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class ExampleBackendFactoryTest {

    @Test
    void isFoundByItsServiceFileUnderItsNameAndSpeaksTheSpiItWasBuiltFor() {
        assertThat(ServiceLoader.load(ProxmoxBackendFactory.class))
                .filteredOn(f -> f.name().equals("example"))
                .singleElement()
                .satisfies(f -> assertThat(f.spiVersion()).isEqualTo(BackendSpi.VERSION));
    }

    @Test
    void declaresItsOptionsWithTheirDefaults() {
        assertThat(new ExampleBackendFactory().options()).extracting(BackendOption::name)
                .containsExactly("state-file", "boot-delay");
        assertThat(ExampleOptions.BOOT_DELAY.defaultValue()).contains("200ms");
        assertThat(ExampleSettings.from(BackendOptions.empty()))
                .isEqualTo(new ExampleSettings(java.util.Optional.empty(), Duration.ofMillis(200)));
    }

    @Test
    void aBadBootDelayIsRefusedNamingTheOption() {
        ExampleBackendFactory factory = new ExampleBackendFactory();

        assertThatThrownBy(() -> factory.validate(BackendOptions.of(Map.of("boot-delay", "soon"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("--backend-opt boot-delay:");
        assertThatThrownBy(() -> factory.validate(BackendOptions.of(Map.of("boot-delay", "-1s"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--backend-opt boot-delay: must not be negative");
    }

    @Test
    void itsNodesAreTheConfiguredOnesAndEveryOfferingZone() throws Exception {
        List<Offering> offerings = List.of(
                new Offering("pve.small", "node-b", CapacityType.ON_DEMAND, 2, Map.of(), Map.of()),
                new Offering("pve.small", "node-c", CapacityType.ON_DEMAND, 2, Map.of(), Map.of()));
        BackendContext context = new BackendContext("proxmox", ExampleFixture.NODES, ExampleFixture.CATALOG,
                offerings, BackendOptions.of(Map.of("boot-delay", "0s")));

        try (ProxmoxBackend backend = new ExampleBackendFactory().create(context)) {
            assertThat(backend.nodes()).extracting(NodeStatus::name).containsExactly("node-a", "node-b", "node-c");
            assertThat(backend.describeManaged()).isEmpty();
        }
    }

    @Test
    void aCreateTakesTheBootDelayAndTheVmsMemoryCountsOnItsNode() throws Exception {
        BackendContext context = ExampleFixture.context(Map.of("boot-delay", "150ms"), ApiCallRecorder.NONE);
        try (ProxmoxBackend backend = new ExampleBackendFactory().create(context)) {
            long start = System.nanoTime();
            backend.cloneAndStart(new ExampleFixture().cloneSpec("m-1"), TestOperationContext.forMachine("m-1"));

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
            assertThat(backend.nodes()).filteredOn(n -> n.name().equals("node-a")).singleElement()
                    .satisfies(n -> assertThat(n.usedMemoryBytes()).isEqualTo(4096L << 20));
        }
    }

    @Test
    void aBootLongerThanTheTimeLeftFailsAtOnce() throws Exception {
        BackendContext context = ExampleFixture.context(Map.of("boot-delay", "10s"), ApiCallRecorder.NONE);
        try (ProxmoxBackend backend = new ExampleBackendFactory().create(context)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> backend.cloneAndStart(new ExampleFixture().cloneSpec("m-1"),
                    TestOperationContext.withDeadline("m-1", Duration.ofSeconds(1))))
                    .hasMessageStartingWith("create pve.small on node-a: boot VM node-a/100: takes 10000 ms,"
                            + " more than");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    void itBundlesItsOwnJackson() {
        assertThat(StateFile.jacksonVersion()).isEqualTo("2.23.0");
    }
}
