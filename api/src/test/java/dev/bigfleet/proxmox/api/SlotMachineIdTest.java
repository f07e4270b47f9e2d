package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A slot's machines after a FAILED one are new ids the shard has never seen; their spelling, like a
 * slot id's, must never drift, and no two spellings may name the same machine.
 */
class SlotMachineIdTest {
    private static final String SLOT = "proxmox/OnDemand/pve.large/pve-a/007";

    @Test
    void aSlotsFirstMachineHasTheSlotsIdAndTheNextOnesCountUp() {
        SlotMachineId first = SlotMachineId.first(SLOT);
        assertThat(first.machineId()).isEqualTo(SLOT);
        assertThat(first.next().machineId()).isEqualTo(SLOT + ".2");
        assertThat(first.next().next().machineId()).isEqualTo(SLOT + ".3");
        assertThat(SlotMachineId.parse(SLOT)).contains(first);
        assertThat(SlotMachineId.parse(SLOT + ".2")).contains(new SlotMachineId(SLOT, 2));
        assertThat(SlotMachineId.slotOf(SLOT + ".12")).contains(SLOT);
    }

    @Test
    void aLaterMachineSupersedesAnEarlierOneOfItsSlotOnly() {
        SlotMachineId second = new SlotMachineId(SLOT, 2);
        assertThat(second.supersedes(SlotMachineId.first(SLOT))).isTrue();
        assertThat(SlotMachineId.first(SLOT).supersedes(second)).isFalse();
        assertThat(second.supersedes(second)).isFalse();
        assertThat(second.supersedes(SlotMachineId.first("proxmox/OnDemand/pve.large/pve-a/008")))
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                SLOT + ".1",
                SLOT + ".0",
                SLOT + ".02",
                SLOT + ".",
                SLOT + ".-2",
                SLOT + ".2a",
                SLOT + ".\u0e52",
                SLOT + ".9999999999",
                SLOT + ".2.3",
                "proxmox/OnDemand/pve.large/pve-a/07.2",
                "not-a-slot",
                "proxmox/OnDemand/pve.large/pve-a.2",
            })
    void refusesIdsThatNoSlotsMachineHas(String id) {
        assertThat(SlotMachineId.parse(id)).isEmpty();
    }

    @Test
    void refusesAGenerationBelowOneAndASlotIdThatIsNotOne() {
        assertThatThrownBy(() -> new SlotMachineId(SLOT, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SlotMachineId("pve-a/007", 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Property
    void parseGivesBackEveryMachineItsSpellingNames(
            @ForAll @IntRange(min = 0, max = 5000) int index,
            @ForAll @IntRange(min = 1, max = 999_999_999) int generation) {
        String slot = SlotId.format("team/proxmox", CapacityType.ON_DEMAND, "pve.gpu.a100", "rack.1", index);
        SlotMachineId machine = new SlotMachineId(slot, generation);
        assertThat(SlotMachineId.parse(machine.machineId())).contains(machine);
        assertThat(SlotId.parse(machine.machineId()).isPresent())
                .as("only a slot's first machine has an id that is a slot id")
                .isEqualTo(generation == 1);
    }
}
