package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Startup errors for a bad offerings file point at the entry and say what to fix. */
class OfferingsValidateTest {
    private static final InstanceTypeCatalog BUILT_IN = InstanceTypeCatalog.builtIn(9000);

    private static Offering offering(String type, String zone, CapacityType capacity, int count) {
        return new Offering(type, zone, capacity, count, Map.of(), Map.of());
    }

    private static Offering ok(String type, String zone) {
        return offering(type, zone, CapacityType.ON_DEMAND, 2);
    }

    @Test
    void acceptsDistinctTypeZonePairs() {
        assertThatCode(() -> Offerings.validate(
                        List.of(ok("pve.small", "a"), ok("pve.small", "b"), ok("pve.large", "a")), BUILT_IN))
                .doesNotThrowAnyException();
    }

    @Test
    void emptyListIsRefused() {
        assertThatThrownBy(() -> Offerings.validate(List.of(), BUILT_IN)).hasMessageContaining("no offerings");
    }

    @Test
    void unknownTypeListsTheKnownOnes() {
        assertThatThrownBy(() -> Offerings.validate(List.of(ok("pve.small", "a"), ok("pve.tiny", "a")), BUILT_IN))
                .hasMessageStartingWith("offering #2 ")
                .hasMessageContaining("pve.tiny")
                .hasMessageContaining("pve.large, pve.medium, pve.small, pve.xlarge");
    }

    @Test
    void duplicatePairNamesTheLaterEntryAndSuggestsMerging() {
        assertThatThrownBy(() -> Offerings.validate(
                        List.of(ok("pve.small", "a"), ok("pve.large", "a"), ok("pve.small", "a")), BUILT_IN))
                .hasMessageStartingWith("offering #3 ")
                .hasMessageContaining("merge");
    }

    @Test
    void noBreakSpaceInAZoneIsRefusedLikeAnyOtherSpace() {
        assertThatThrownBy(() -> Offerings.validate(List.of(ok("pve.small", "node\u00a01")), BUILT_IN))
                .hasMessageStartingWith("offering #1 ")
                .hasMessageContaining("zone");
    }

    @Test
    void eachReasonIsSpelledOut() {
        assertThatThrownBy(() -> Offerings.validate(List.of(ok("", "a")), BUILT_IN))
                .hasMessage("offering #1: instance_type is required");
        assertThatThrownBy(() -> Offerings.validate(List.of(ok("pve.small", "")), BUILT_IN))
                .hasMessage("offering #1: zone is required");
        assertThatThrownBy(
                        () -> Offerings.validate(List.of(offering("pve.small", "a", CapacityType.SPOT, 1)), BUILT_IN))
                .hasMessageContaining("on_demand");
        assertThatThrownBy(() ->
                        Offerings.validate(List.of(offering("pve.small", "a", CapacityType.ON_DEMAND, 0)), BUILT_IN))
                .hasMessageContaining("count must be > 0");
    }
}
