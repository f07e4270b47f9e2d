package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The catalog decides what a slot advertises as allocatable and which types default offerings use. */
class InstanceTypeCatalogTest {

    @ParameterizedTest
    @CsvSource({
        "pve.small, 2, 4Gi",
        "pve.medium, 4, 8Gi",
        "pve.large, 8, 16Gi",
        "pve.xlarge, 16, 32Gi",
    })
    void builtInAllocatable(String name, String cpu, String memory) {
        InstanceType type = InstanceTypeCatalog.builtIn(9000).find(name).orElseThrow();
        assertThat(type.allocatable()).isEqualTo(Map.of("cpu", cpu, "memory", memory));
    }

    @Test
    void builtInTypesCloneTheGivenTemplate() {
        assertThat(InstanceTypeCatalog.builtIn(123).asMap().values())
                .extracting(InstanceType::templateVmid)
                .containsOnly(123L);
    }

    @Test
    void memoryThatIsNotWholeGibIsRenderedInMi() {
        assertThat(new InstanceType("odd", 1, 1536, 9000).allocatable())
                .isEqualTo(Map.of("cpu", "1", "memory", "1536Mi"));
    }

    @Test
    void namesAreSortedSoDefaultsPickLargeAndXlarge() {
        assertThat(InstanceTypeCatalog.builtIn(9000).names())
                .containsExactly("pve.large", "pve.medium", "pve.small", "pve.xlarge");
    }

    @Test
    void unknownTypeIsAbsent() {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        assertThat(catalog.find("pve.tiny")).isEmpty();
        assertThat(catalog.contains("pve.tiny")).isFalse();
    }

    @Test
    void rejectsEmptyCatalogAndImpossibleSizes() {
        assertThatThrownBy(() -> new InstanceTypeCatalog(List.of())).hasMessageContaining("empty");
        assertThatThrownBy(() -> new InstanceType("zero", 0, 1024, 9000)).hasMessageContaining("zero");
        assertThatThrownBy(() -> new InstanceType("nomem", 1, 0, 9000)).hasMessageContaining("nomem");
        assertThatThrownBy(() -> new InstanceTypeCatalog(
                        List.of(new InstanceType("twice", 1, 1024, 9000), new InstanceType("twice", 2, 2048, 9000))))
                .hasMessageContaining("twice");
    }
}
