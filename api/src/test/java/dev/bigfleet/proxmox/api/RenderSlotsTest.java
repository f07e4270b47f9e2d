package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A rendered slot is the quota entry the scheduler sees before any VM exists (spec §2.4). */
class RenderSlotsTest {
    private static final InstanceTypeCatalog BUILT_IN = InstanceTypeCatalog.builtIn(9000);
    private static final PriceList PRICES =
            new PriceList(Map.of(), PriceList.DEFAULT_PER_VCPU_HOUR, PriceList.DEFAULT_PER_GIB_HOUR);

    @Test
    void slotCarriesOfferingCatalogAndPrice() {
        Offering offering = new Offering(
                "pve.large",
                "pve-a",
                CapacityType.ON_DEMAND,
                2,
                Map.of("cpu", "1", "memory", "2Gi"),
                Map.of("team", "ml"));

        List<Machine> slots = Offerings.renderSlots("proxmox", List.of(offering), BUILT_IN, PRICES);

        assertThat(slots)
                .extracting(Machine::id)
                .containsExactly("proxmox/OnDemand/pve.large/pve-a/000", "proxmox/OnDemand/pve.large/pve-a/001");
        Machine first = slots.get(0);
        assertThat(first.state()).isEqualTo(MachineState.SPECULATIVE);
        assertThat(first.host().isEmpty()).isTrue();
        assertThat(first.instanceType()).isEqualTo("pve.large");
        assertThat(first.zone()).isEqualTo("pve-a");
        assertThat(first.capacityType()).isEqualTo(CapacityType.ON_DEMAND);
        assertThat(first.pricePerHour()).isCloseTo(0.0368, within(1e-12));
        assertThat(first.interruptionProbability()).isZero();
        assertThat(first.resources()).isEqualTo(Map.of("cpu", "1", "memory", "2Gi"));
        assertThat(first.allocatable()).isEqualTo(Map.of("cpu", "8", "memory", "16Gi"));
        // Only the offering's labels: the provider adds none of its own.
        assertThat(first.labels()).isEqualTo(Map.of("team", "ml"));
    }

    @Test
    void typeMissingFromTheCatalogHasNoAllocatableAndNoPrice() {
        Offering offering = new Offering("gpu.huge", "pve-a", CapacityType.ON_DEMAND, 1, Map.of(), Map.of());
        Machine slot = Offerings.renderSlots("proxmox", List.of(offering), BUILT_IN, PRICES)
                .get(0);
        assertThat(slot.allocatable()).isEmpty();
        assertThat(slot.pricePerHour()).isZero();
    }
}
