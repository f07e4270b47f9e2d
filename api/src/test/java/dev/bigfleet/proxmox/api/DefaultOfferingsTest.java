package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an operator gets without --offerings (spec §2.2), minus the reference's duplicate-id bug. */
class DefaultOfferingsTest {
    private static final InstanceTypeCatalog BUILT_IN = InstanceTypeCatalog.builtIn(9000);

    private static List<Offering> defaults(int seed) {
        return Offerings.defaults(BUILT_IN, "pve-a", "pve-b", seed);
    }

    @Test
    void thirtyTwoSpreadEvenlyOverLargeAndXlargeInTwoZones() {
        assertThat(defaults(32))
                .extracting(Offering::instanceType, Offering::zone, Offering::count)
                .containsExactly(
                        tuple("pve.large", "pve-a", 8),
                        tuple("pve.xlarge", "pve-a", 8),
                        tuple("pve.large", "pve-b", 8),
                        tuple("pve.xlarge", "pve-b", 8));
    }

    @Test
    void remainderGoesToTheFirstBuckets() {
        assertThat(defaults(5)).extracting(Offering::count).containsExactly(2, 1, 1, 1);
        assertThat(defaults(6)).extracting(Offering::count).containsExactly(2, 2, 1, 1);
    }

    @Test
    void emptyBucketsAreDropped() {
        assertThat(defaults(3))
                .extracting(Offering::instanceType, Offering::zone, Offering::count)
                .containsExactly(
                        tuple("pve.large", "pve-a", 1),
                        tuple("pve.xlarge", "pve-a", 1),
                        tuple("pve.large", "pve-b", 1));
        assertThat(defaults(1))
                .extracting(Offering::instanceType, Offering::zone, Offering::count)
                .containsExactly(tuple("pve.large", "pve-a", 1));
    }

    @Test
    void nonPositiveSeedMeansSixteen() {
        assertThat(defaults(0)).extracting(Offering::count).containsExactly(4, 4, 4, 4);
        assertThat(defaults(-7)).extracting(Offering::count).containsExactly(4, 4, 4, 4);
    }

    @Test
    void everyDefaultAsksForOneCpuAndTwoGiOnDemandWithoutLabels() {
        assertThat(defaults(32)).allSatisfy(o -> {
            assertThat(o.capacityType()).isEqualTo(CapacityType.ON_DEMAND);
            assertThat(o.resources()).isEqualTo(Map.of("cpu", "1", "memory", "2Gi"));
            assertThat(o.labels()).isEmpty();
        });
    }

    @Test
    void singleNodeMergesBucketsInsteadOfDuplicatingIds() {
        // The reference emits large@n twice here and then fails to start on a fresh store.
        List<Offering> offerings = Offerings.defaults(BUILT_IN, "n1", "n1", 32);
        assertThat(offerings)
                .extracting(Offering::instanceType, Offering::zone, Offering::count)
                .containsExactly(tuple("pve.large", "n1", 16), tuple("pve.xlarge", "n1", 16));
        Offerings.validate(offerings, BUILT_IN);
    }

    @Test
    void oneTypeCatalogMergesBucketsPerZone() {
        InstanceTypeCatalog one = new InstanceTypeCatalog(List.of(new InstanceType("only", 4, 8192, 9000)));
        List<Offering> offerings = Offerings.defaults(one, "pve-a", "pve-b", 5);
        assertThat(offerings)
                .extracting(Offering::instanceType, Offering::zone, Offering::count)
                .containsExactly(tuple("only", "pve-a", 3), tuple("only", "pve-b", 2));
        Offerings.validate(offerings, one);
    }
}
