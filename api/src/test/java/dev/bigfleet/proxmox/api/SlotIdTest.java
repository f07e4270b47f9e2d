package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Slot ids are what the shard stores; their spelling must never drift. */
class SlotIdTest {

    @ParameterizedTest
    @CsvSource({"0, 000", "7, 007", "999, 999", "1000, 1000", "12345, 12345"})
    void indexIsPaddedToAtLeastThreeDigits(int index, String suffix) {
        assertThat(SlotId.format("proxmox", CapacityType.ON_DEMAND, "pve.large", "pve-a", index))
                .isEqualTo("proxmox/OnDemand/pve.large/pve-a/" + suffix);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1000})
    void parseGivesBackWhatFormatWrote(int index) {
        String id = SlotId.format("proxmox", CapacityType.ON_DEMAND, "pve.large", "pve-a", index);
        assertThat(SlotId.parse(id))
                .contains(new SlotId.Parts("proxmox", CapacityType.ON_DEMAND, "pve.large", "pve-a", index));
    }

    @Test
    void providerMayContainSlashes() {
        // --provider is not validated, so everything left of the last four parts is the provider.
        String id = SlotId.format("team/a/proxmox", CapacityType.ON_DEMAND, "pve.small", "node1", 3);
        assertThat(id).isEqualTo("team/a/proxmox/OnDemand/pve.small/node1/003");
        assertThat(SlotId.parse(id))
                .contains(new SlotId.Parts("team/a/proxmox", CapacityType.ON_DEMAND, "pve.small", "node1", 3));
    }

    @Test
    void emptyProviderStillRoundTrips() {
        String id = SlotId.format("", CapacityType.ON_DEMAND, "pve.small", "node1", 0);
        assertThat(SlotId.parse(id)).map(SlotId.Parts::provider).contains("");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "OnDemand/pve.small/node1/000",
                "proxmox/Burst/pve.small/node1/000",
                "proxmox/OnDemand/pve.small/node1/",
                "proxmox/OnDemand/pve.small/node1/00a",
                "proxmox/OnDemand/pve.small/node1/-01",
                "proxmox/OnDemand/pve.small/node1/0001",
                "proxmox/OnDemand/pve.small/node1/01",
                "proxmox/OnDemand/pve.small/node1/\u0e50\u0e50\u0e51",
                "proxmox/OnDemand/pve.small/node1/99999999999",
                "",
            })
    void refusesIdsFormatCouldNotHaveWritten(String id) {
        // Accepting 0001 or Thai digits would let two spellings name the same slot.
        assertThat(SlotId.parse(id)).isEmpty();
    }

    @Test
    void digitsDoNotDependOnTheJvmLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("th-TH-u-nu-thai"));
            assertThat(SlotId.format("proxmox", CapacityType.ON_DEMAND, "pve.small", "pve-a", 7))
                    .isEqualTo("proxmox/OnDemand/pve.small/pve-a/007");
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void negativeIndexIsRefused() {
        assertThatThrownBy(() -> SlotId.format("p", CapacityType.ON_DEMAND, "t", "z", -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
