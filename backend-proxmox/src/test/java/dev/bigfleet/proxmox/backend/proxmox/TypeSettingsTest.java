package dev.bigfleet.proxmox.backend.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.InstanceType;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The bootstrap keys of an {@code --instance-types} entry: what they mean and each mistake named. */
class TypeSettingsTest {
    private static TypeSettings of(Map<String, String> settings) {
        return TypeSettings.of(new InstanceType("pve.talos", 2, 2048, 9000, settings));
    }

    @Test
    void theGuestAgentIsTheDefaultAndNocloudTakesItsSeedStorage() {
        assertThat(of(Map.of()).bootstrap()).isEqualTo(GuestBootstrap.AGENT);
        assertThat(of(Map.of("bootstrap", "\"agent\"")).bootstrap()).isEqualTo(GuestBootstrap.AGENT);
        GuestBootstrap nocloud = of(Map.of("bootstrap", "\"nocloud\"", "seed_storage", "\"iso-store\""))
                .bootstrap();
        assertThat(nocloud.nocloud()).isTrue();
        assertThat(nocloud.seedStorage()).isEqualTo(Optional.of("iso-store"));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"cloud-init\"| | bootstrap must be \"agent\" or \"nocloud\", got \"cloud-init\"",
                "\"nocloud\"   | | bootstrap \"nocloud\" needs seed_storage",
                "\"agent\"     | \"local\" | seed_storage is only for bootstrap \"nocloud\"",
                "\"nocloud\"   | \"Local Storage\" | seed_storage \"Local Storage\" is not a storage id",
            })
    void aMistakeNamesTheEntryAndTheKey(String bootstrap, String seedStorage, String message) {
        Map<String, String> settings = seedStorage == null
                ? Map.of("bootstrap", bootstrap)
                : Map.of("bootstrap", bootstrap, "seed_storage", seedStorage);
        assertThatThrownBy(() -> of(settings))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--instance-types \"pve.talos\": ")
                .hasMessageContaining(message);
    }
}
