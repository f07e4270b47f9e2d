package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading the quantities offerings and allocatable carry. */
class QuantitiesTest {

    @ParameterizedTest
    @CsvSource({"2, 2", "1.5, 1.5", "500m, 0.5", "2500m, 2.5", "0, 0", " 1 , 1"})
    void cpu(String quantity, String cores) {
        assertThat(Quantities.cpuToCores(quantity)).isEqualByComparingTo(new BigDecimal(cores));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "m", "-1", "1e3", "two", "1.5.0", "1 m"})
    void cpuRejectsWhatIsNotPlainOrMilli(String quantity) {
        assertThatThrownBy(() -> Quantities.cpuToCores(quantity)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"2Gi, 2048", "512Mi, 512", "512Ki, 0.5", "1Ti, 1048576", "1048576, 1", "1.5Gi, 1536"})
    void memory(String quantity, String mib) {
        assertThat(Quantities.memoryToMib(quantity)).isEqualByComparingTo(new BigDecimal(mib));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Gi", "-1Gi", "2GB", "2gi", "1e3"})
    void memoryRejectsWhatIsNotBinary(String quantity) {
        assertThatThrownBy(() -> Quantities.memoryToMib(quantity)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"4096, 4Gi", "1024, 1Gi", "1536, 1536Mi", "1, 1Mi", "32768, 32Gi"})
    void memoryRendering(long mib, String quantity) {
        assertThat(Quantities.memoryFromMib(mib)).isEqualTo(quantity);
    }
}
