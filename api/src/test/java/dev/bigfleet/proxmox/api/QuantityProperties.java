package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

/** Allocatable memory is rendered from MiB and read back for density; nothing may be lost. */
class QuantityProperties {

    @Property
    void memoryRenderingRoundTrips(@ForAll @LongRange(min = 1, max = 1L << 40) long mib) {
        assertThat(Quantities.memoryToMib(Quantities.memoryFromMib(mib))).isEqualByComparingTo(BigDecimal.valueOf(mib));
    }

    @Property
    void wholeGibIsRenderedInGiAndOnlyThen(@ForAll @LongRange(min = 1, max = 1L << 40) long mib) {
        String rendered = Quantities.memoryFromMib(mib);
        if (mib % 1024 == 0) {
            assertThat(rendered).isEqualTo((mib / 1024) + "Gi");
        } else {
            assertThat(rendered).isEqualTo(mib + "Mi");
        }
    }

    @Property
    void multiplesOf1024AlwaysUseGi(@ForAll @LongRange(min = 1, max = 1L << 30) long gib) {
        assertThat(Quantities.memoryFromMib(gib * 1024)).isEqualTo(gib + "Gi");
    }

    @Property
    void milliCpuIsAThousandthOfACore(@ForAll @LongRange(min = 0, max = 1_000_000) long milli) {
        assertThat(Quantities.cpuToCores(milli + "m"))
                .isEqualByComparingTo(BigDecimal.valueOf(milli).movePointLeft(3));
    }
}
