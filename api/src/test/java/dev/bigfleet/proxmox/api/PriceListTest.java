package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Prices shown to the scheduler: flat synthetic rates, --prices overrides, 0 for unknown types. */
class PriceListTest {
    private static final InstanceTypeCatalog BUILT_IN = InstanceTypeCatalog.builtIn(9000);

    private static PriceList defaults(Map<String, Double> overrides) {
        return new PriceList(overrides, PriceList.DEFAULT_PER_VCPU_HOUR, PriceList.DEFAULT_PER_GIB_HOUR);
    }

    @ParameterizedTest
    @CsvSource({"pve.small, 0.0092", "pve.medium, 0.0184", "pve.large, 0.0368", "pve.xlarge, 0.0736"})
    void builtInCatalogHasTheReferencePrices(String type, double usd) {
        assertThat(defaults(Map.of()).priceOf(type, BUILT_IN)).isCloseTo(usd, within(1e-12));
        assertThat(defaults(Map.of()).sourceOf(type, BUILT_IN)).isEqualTo("synthetic");
    }

    @Test
    void overrideWinsOverTheSyntheticPrice() {
        PriceList prices = defaults(Map.of("pve.small", 0.5));
        assertThat(prices.priceOf("pve.small", BUILT_IN)).isEqualTo(0.5);
        assertThat(prices.sourceOf("pve.small", BUILT_IN)).isEqualTo("override");
        assertThat(prices.priceOf("pve.large", BUILT_IN)).isCloseTo(0.0368, within(1e-12));
    }

    @Test
    void unknownTypeCostsNothingUnlessOverridden() {
        assertThat(defaults(Map.of()).priceOf("gpu.huge", BUILT_IN)).isZero();
        assertThat(defaults(Map.of()).sourceOf("gpu.huge", BUILT_IN)).isEqualTo("unknown");
        assertThat(defaults(Map.of("gpu.huge", 2.0)).priceOf("gpu.huge", BUILT_IN))
                .isEqualTo(2.0);
    }

    @Test
    void flatRatesDriveTheSyntheticPrice() {
        PriceList prices = new PriceList(Map.of(), 0.01, 0.001);
        // pve.large: 8 vCPU, 16 GiB
        assertThat(prices.priceOf("pve.large", BUILT_IN)).isCloseTo(8 * 0.01 + 16 * 0.001, within(1e-12));
    }

    @Test
    void parsesPairsTrimmingAndSkippingEmptyEntries() {
        assertThat(PriceList.parseOverrides(" pve.small=0.01 , pve.large = 0.5,, ,custom=0 "))
                .containsExactly(entry("pve.small", 0.01), entry("pve.large", 0.5), entry("custom", 0.0));
        assertThat(PriceList.parseOverrides("  ")).isEmpty();
        assertThat(PriceList.parseOverrides(null)).isEmpty();
        assertThat(PriceList.parseOverrides("a=1e-3")).containsExactly(entry("a", 0.001));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "pve.medium=1,pve.small=NaN | pve.small",
                "pve.small=Inf | pve.small",
                "pve.small=Infinity | pve.small",
                "pve.small=-Infinity | pve.small",
                "pve.small=-0.5 | pve.small",
                "pve.small=1e999 | pve.small",
                "pve.small= | pve.small",
                "pve.small=cheap | pve.small",
                "pve.small=1d | pve.small",
                "pve.small=0x1p3 | pve.small",
                "pve.medium=1,pve.small | pve.small",
                "=0.5 | =0.5",
                " = 0.5 | = 0.5",
                "pve.small=1,pve.small=2 | pve.small",
            })
    void rejectsABadEntryByName(String flag, String named) {
        assertThatThrownBy(() -> PriceList.parseOverrides(flag))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(named);
    }

    @Test
    void constructorRefusesPricesTheParserWouldRefuse() {
        assertThatThrownBy(() -> defaults(Map.of("pve.small", Double.NaN))).hasMessageContaining("pve.small");
        assertThatThrownBy(() -> defaults(Map.of("pve.small", Double.POSITIVE_INFINITY)))
                .hasMessageContaining("pve.small");
        assertThatThrownBy(() -> new PriceList(Map.of(), -1, PriceList.DEFAULT_PER_GIB_HOUR))
                .hasMessageContaining("vCPU");
    }
}
