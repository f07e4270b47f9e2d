package dev.bigfleet.proxmox.backend.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.ProxmoxBackendFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class FakeBackendFactoryTest {

    @Test
    void isDiscoverableByName() {
        assertThat(ServiceLoader.load(ProxmoxBackendFactory.class))
                .extracting(ProxmoxBackendFactory::name)
                .contains("fake");
    }

    @Test
    void defaultsAreA200msLatencyAndNoFaults() {
        assertThat(FakeSettings.from(BackendOptions.of(Map.of())))
                .isEqualTo(new FakeSettings(Duration.ofMillis(200), false));
    }

    @Test
    void readsLatencyAndFaults() {
        FakeSettings settings = FakeSettings.from(BackendOptions.of(Map.of("latency", "0s", "faults", "true")));

        assertThat(settings).isEqualTo(new FakeSettings(Duration.ZERO, true));
        assertThat(FakeSettings.from(BackendOptions.of(Map.of("latency", "1.5s", "faults", "false"))))
                .isEqualTo(new FakeSettings(Duration.ofMillis(1500), false));
    }

    @Test
    void badValuesNameTheirOption() {
        assertThatThrownBy(() -> FakeSettings.from(BackendOptions.of(Map.of("latency", "soon"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--fake-latency:");
        assertThatThrownBy(() -> FakeSettings.from(BackendOptions.of(Map.of("latency", "-1s"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--fake-latency:");
        assertThatThrownBy(() -> FakeSettings.from(BackendOptions.of(Map.of("faults", "yes"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--fake-faults:");
    }

    @Test
    void theClusterHasTheConfiguredNodesAndEveryOfferingZone() throws Exception {
        BackendContext context = new BackendContext(
                "proxmox",
                List.of("pve1", "pve2"),
                InstanceTypeCatalog.builtIn(9000),
                List.of(offering("pve2"), offering("pve3")),
                BackendOptions.of(Map.of("latency", "0s")));

        try (ProxmoxBackend backend = new FakeBackendFactory().create(context)) {
            assertThat(backend).isInstanceOf(MeteredFakeBackend.class);
            assertThat(backend.nodes()).extracting(NodeStatus::name).containsExactly("pve1", "pve2", "pve3");
            assertThat(backend.describeManaged()).isEmpty();
        }
    }

    private static Offering offering(String zone) {
        return new Offering("pve.small", zone, CapacityType.ON_DEMAND, 1, Map.of(), Map.of());
    }
}
