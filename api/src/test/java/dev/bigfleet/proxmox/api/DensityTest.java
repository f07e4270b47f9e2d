package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Density tells the scheduler how many pods of the offered shape one machine holds. */
class DensityTest {

    private static Map<String, String> alloc(String cpu, String memory) {
        return Map.of("cpu", cpu, "memory", memory);
    }

    @Test
    void builtInDefaultsHoldEightAndSixteenPods() {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        PriceList prices = new PriceList(Map.of(), PriceList.DEFAULT_PER_VCPU_HOUR, PriceList.DEFAULT_PER_GIB_HOUR);
        List<Machine> slots =
                Offerings.renderSlots("proxmox", Offerings.defaults(catalog, "pve-a", "pve-b", 4), catalog, prices);
        assertThat(slots)
                .extracting(Machine::instanceType)
                .containsExactly("pve.large", "pve.xlarge", "pve.large", "pve.xlarge");
        assertThat(slots).extracting(m -> Density.of(m).getAsLong()).containsExactly(8L, 16L, 8L, 16L);
    }

    @Test
    void theScarcerResourceDecides() {
        assertThat(Density.of(alloc("16", "4Gi"), alloc("1", "3Gi"))).hasValue(1);
        assertThat(Density.of(alloc("2", "64Gi"), alloc("1.5", "1Gi"))).hasValue(1);
    }

    @Test
    void milliCpuAndMixedMemoryUnits() {
        assertThat(Density.of(alloc("4", "8Gi"), alloc("500m", "1024Mi"))).hasValue(8);
        assertThat(Density.of(alloc("4", "8Gi"), alloc("250m", "1073741824"))).hasValue(8);
        assertThat(Density.of(alloc("4", "1536Mi"), alloc("100m", "512Ki"))).hasValue(40);
    }

    @Test
    void aPodLargerThanTheMachineGivesZero() {
        assertThat(Density.of(alloc("2", "4Gi"), alloc("4", "1Gi"))).hasValue(0);
    }

    @Test
    void onlyResourcesInBothMapsCount() {
        // The machine has no GPU figure, so the GPU request cannot be judged and is left out.
        assertThat(Density.of(alloc("8", "16Gi"), Map.of("cpu", "1", "nvidia.com/gpu", "1")))
                .hasValue(8);
        assertThat(Density.of(Map.of("cpu", "8", "pods", "110"), Map.of("cpu", "100m", "pods", "1")))
                .hasValue(80);
    }

    @Test
    void notComputableWithoutACommonNonZeroRequest() {
        assertThat(Density.of(alloc("8", "16Gi"), Map.of())).isEmpty();
        assertThat(Density.of(Map.of(), alloc("1", "2Gi"))).isEmpty();
        assertThat(Density.of(alloc("8", "16Gi"), Map.of("nvidia.com/gpu", "1")))
                .isEmpty();
        assertThat(Density.of(alloc("8", "16Gi"), alloc("0", "0Gi"))).isEmpty();
        // A zero request on one resource leaves the other to decide.
        assertThat(Density.of(alloc("8", "16Gi"), alloc("0", "4Gi"))).hasValue(4);
    }

    @Test
    void unreadableQuantityMakesItNotComputableRatherThanGuessing() {
        assertThat(Density.of(alloc("8", "16Gi"), alloc("lots", "2Gi"))).isEmpty();
        assertThat(Density.of(alloc("8", "16Gi"), alloc("-1", "2Gi"))).isEmpty();
        assertThat(Density.of(alloc("8", "16G"), alloc("1", "2Gi"))).isEmpty();
    }
}
