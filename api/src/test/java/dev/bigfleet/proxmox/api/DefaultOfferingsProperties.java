package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Defaults must start cleanly for every catalog and node list, including the single-node and
 * one-type cases where the reference emits duplicate ids and refuses to start.
 */
class DefaultOfferingsProperties {

    record Setup(InstanceTypeCatalog catalog, String zoneA, String zoneB) {}

    @Provide
    Arbitrary<Setup> setups() {
        Arbitrary<List<String>> zones = Arbitraries.oneOf(
                Arbs.name().map(z -> List.of(z, z)),
                Combinators.combine(Arbs.name(), Arbs.name()).as(List::of));
        return Combinators.combine(Arbs.catalog(), zones).as((catalog, z) -> new Setup(catalog, z.get(0), z.get(1)));
    }

    @Property(tries = 300)
    void idsAreUniqueAndCountsSumToTheSeed(@ForAll("setups") Setup s, @ForAll @IntRange(min = 1, max = 5000) int seed) {
        List<Offering> offerings = Offerings.defaults(s.catalog(), s.zoneA(), s.zoneB(), seed);

        assertThat(offerings.stream().mapToInt(Offering::count).sum()).isEqualTo(seed);
        List<String> ids = Offerings.renderSlots("proxmox", offerings, s.catalog(), Arbs.DEFAULT_PRICES).stream()
                .map(Machine::id)
                .toList();
        assertThat(ids).hasSize(seed);
        assertThat(new HashSet<>(ids)).hasSize(seed);
        Offerings.validate(offerings, s.catalog());
    }

    @Property
    void nonPositiveSeedMeansSixteen(@ForAll("setups") Setup s, @ForAll @IntRange(min = -1000, max = 0) int seed) {
        assertThat(Offerings.defaults(s.catalog(), s.zoneA(), s.zoneB(), seed).stream()
                        .mapToInt(Offering::count)
                        .sum())
                .isEqualTo(16);
    }

    @Property
    void onlyTheFirstAndLastTypesInTheTwoZones(
            @ForAll("setups") Setup s, @ForAll @IntRange(min = 1, max = 5000) int seed) {
        List<String> names = s.catalog().names();
        for (Offering o : Offerings.defaults(s.catalog(), s.zoneA(), s.zoneB(), seed)) {
            assertThat(o.instanceType()).isIn(names.get(0), names.get(names.size() - 1));
            assertThat(o.zone()).isIn(s.zoneA(), s.zoneB());
            assertThat(o.count()).isPositive();
            assertThat(o.capacityType()).isEqualTo(CapacityType.ON_DEMAND);
            assertThat(o.resources()).isEqualTo(Map.of("cpu", "1", "memory", "2Gi"));
            assertThat(o.labels()).isEmpty();
        }
    }
}
