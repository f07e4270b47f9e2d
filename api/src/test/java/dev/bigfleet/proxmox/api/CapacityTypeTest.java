package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** An offering's capacity_type: only on-demand exists on Proxmox, and refusals say why. */
class CapacityTypeTest {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"on_demand", "on-demand", "ondemand", "ON_DEMAND", " On-Demand ", "OnDemand"})
    void onDemandSpellings(String value) {
        assertThat(CapacityType.parseOffered(value)).isEqualTo(CapacityType.ON_DEMAND);
    }

    @Test
    void refusedKindsEachGiveTheirOwnReason() {
        Set<String> reasons = Stream.of("spot", "reserved", "bare_metal")
                .map(v -> catchThrowable(() -> CapacityType.parseOffered(v)))
                .peek(e -> assertThat(e).isInstanceOf(IllegalArgumentException.class))
                .map(Throwable::getMessage)
                .collect(Collectors.toSet());
        assertThat(reasons).hasSize(3);
        assertThat(catchThrowable(() -> CapacityType.parseOffered("spot"))).hasMessageContaining("preemption");
        assertThat(catchThrowable(() -> CapacityType.parseOffered("reserved"))).hasMessageContaining("reservation");
        assertThat(catchThrowable(() -> CapacityType.parseOffered("bare_metal")))
                .hasMessageContaining("deletable");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bare-metal", "metal", "SPOT", "Reserved"})
    void refusalIgnoresCaseAndSpelling(String value) {
        assertThatThrownBy(() -> CapacityType.parseOffered(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not offered");
    }

    @ParameterizedTest
    @ValueSource(strings = {"burst", "preemptible", "on demand"})
    void unknownValuesAreRefusedAsUnknown(String value) {
        assertThatThrownBy(() -> CapacityType.parseOffered(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown capacity_type")
                .hasMessageContaining(value);
    }

    @Test
    void slotNamesRoundTrip() {
        for (CapacityType type : CapacityType.values()) {
            assertThat(CapacityType.fromSlotName(type.slotName())).isEqualTo(type);
        }
        assertThat(CapacityType.ON_DEMAND.slotName()).isEqualTo("OnDemand");
        assertThatThrownBy(() -> CapacityType.fromSlotName("ondemand")).isInstanceOf(IllegalArgumentException.class);
    }
}
