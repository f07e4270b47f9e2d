package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Slots rendered from valid offerings: the ids the shard keeps across provider restarts. */
class SlotRenderingProperties {

    record Setup(InstanceTypeCatalog catalog, List<Offering> offerings, String provider) {}

    @Provide
    Arbitrary<Setup> setups() {
        return Combinators.combine(Arbs.valid(), providers())
                .as((v, provider) -> new Setup(v.catalog(), v.offerings(), provider));
    }

    // The provider label is not validated and may contain '/'.
    private static Arbitrary<String> providers() {
        return Arbitraries.strings().withChars("abc/-").ofMaxLength(8);
    }

    @Property(tries = 500)
    void idsAreUniqueAndCountsAddUp(@ForAll("setups") Setup s) {
        List<Machine> slots = Offerings.renderSlots(s.provider(), s.offerings(), s.catalog(), Arbs.DEFAULT_PRICES);

        int total = s.offerings().stream().mapToInt(Offering::count).sum();
        assertThat(slots).hasSize(total);
        assertThat(new HashSet<>(slots.stream().map(Machine::id).toList())).hasSize(total);
        for (Offering o : s.offerings()) {
            assertThat(slots.stream()
                            .filter(m -> m.instanceType().equals(o.instanceType())
                                    && m.zone().equals(o.zone())))
                    .hasSize(o.count());
        }
    }

    @Property(tries = 500)
    void renderingAgainAfterARestartGivesTheSameIdsInTheSameOrder(@ForAll("setups") Setup s) {
        List<String> before = ids(s.provider(), s.offerings(), s.catalog());

        // A restart rebuilds everything from configuration: fresh objects, catalog read in another order.
        List<InstanceType> reversed = new ArrayList<>(s.catalog().asMap().values());
        Collections.reverse(reversed);
        List<Offering> reread = s.offerings().stream()
                .map(o -> new Offering(
                        o.instanceType(),
                        o.zone(),
                        o.capacityType(),
                        o.count(),
                        Map.copyOf(o.resources()),
                        Map.copyOf(o.labels())))
                .toList();
        List<String> after = ids(s.provider(), reread, new InstanceTypeCatalog(reversed));

        assertThat(after).isEqualTo(before);
    }

    @Property(tries = 500)
    void everyIdParsesBackToItsOfferingAndIndex(@ForAll("setups") Setup s) {
        List<Machine> slots = Offerings.renderSlots(s.provider(), s.offerings(), s.catalog(), Arbs.DEFAULT_PRICES);
        int at = 0;
        for (Offering o : s.offerings()) {
            for (int i = 0; i < o.count(); i++, at++) {
                assertThat(SlotId.parse(slots.get(at).id()))
                        .contains(
                                new SlotId.Parts(s.provider(), CapacityType.ON_DEMAND, o.instanceType(), o.zone(), i));
            }
        }
    }

    @Property(tries = 500)
    void allocatableAndPriceComeFromTheCatalogTheRestFromTheOffering(@ForAll("setups") Setup s) {
        List<Machine> slots = Offerings.renderSlots(s.provider(), s.offerings(), s.catalog(), Arbs.DEFAULT_PRICES);
        Iterator<Machine> next = slots.iterator();
        for (Offering o : s.offerings()) {
            for (int i = 0; i < o.count(); i++) {
                Machine slot = next.next();
                assertThat(slot.resources()).isEqualTo(o.resources());
                assertThat(slot.labels()).isEqualTo(o.labels());
            }
        }
        for (Machine slot : slots) {
            InstanceType type = s.catalog().find(slot.instanceType()).orElseThrow();
            long mib = type.memoryMib();
            String memory = mib % 1024 == 0 ? (mib / 1024) + "Gi" : mib + "Mi";
            assertThat(slot.allocatable()).isEqualTo(Map.of("cpu", Integer.toString(type.vcpu()), "memory", memory));
            assertThat(slot.pricePerHour()).isEqualTo(Arbs.DEFAULT_PRICES.priceOf(type.name(), s.catalog()));
            assertThat(slot.state()).isEqualTo(MachineState.SPECULATIVE);
            assertThat(slot.interruptionProbability()).isZero();
        }
    }

    private static List<String> ids(String provider, List<Offering> offerings, InstanceTypeCatalog catalog) {
        return Offerings.renderSlots(provider, offerings, catalog, Arbs.DEFAULT_PRICES).stream()
                .map(Machine::id)
                .toList();
    }
}
