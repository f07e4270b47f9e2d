package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Density = floor(allocatable / resources) over the slot's own catalog-derived allocatable. */
class DensityProperties {

    /** A pod request in exact integer units: milli-CPU and MiB, and how it is spelled. */
    record Request(long milliCpu, long mib, String cpu, String memory) {
        Map<String, String> asResources() {
            return Map.of("cpu", cpu, "memory", memory);
        }
    }

    @Provide
    Arbitrary<Request> requests() {
        Arbitrary<Long> milli = Arbitraries.oneOf(
                Arbitraries.longs().between(1, 64).map(cores -> cores * 1000),
                Arbitraries.longs().between(1, 64_000));
        Arbitrary<Long> mib = Arbitraries.longs().between(1, 1L << 20);
        // Edge cases only for the numbers; with the spellings too they outnumber the tries.
        Arbitrary<Boolean> milliSpelling = Arbitraries.of(true, false).withoutEdgeCases();
        Arbitrary<String> unit = Arbitraries.of("Mi", "Gi", "Ki", "").withoutEdgeCases();
        return Combinators.combine(milli, mib, milliSpelling, unit).as((m, b, asMilli, u) -> {
            // CPU as milli ("1500m") or cores ("1.5", "2"); memory in any unit that is exact.
            String cpu = asMilli
                    ? m + "m"
                    : BigDecimal.valueOf(m, 3).stripTrailingZeros().toPlainString();
            long mibOut = u.equals("Gi") ? Math.max(1, b / 1024) * 1024 : b;
            String memory = switch (u) {
                case "Gi" -> (mibOut / 1024) + "Gi";
                case "Ki" -> (mibOut * 1024) + "Ki";
                case "" -> Long.toString(mibOut * 1024 * 1024);
                default -> mibOut + "Mi";
            };
            return new Request(m, mibOut, cpu, memory);
        });
    }

    @Provide
    Arbitrary<InstanceType> types() {
        return Arbs.type("t");
    }

    @Property
    void equalsTheIntegerFloorOverBothResources(@ForAll("types") InstanceType type, @ForAll("requests") Request r) {
        long byCpu = type.vcpu() * 1000L / r.milliCpu();
        long byMemory = type.memoryMib() / r.mib();

        assertThat(Density.of(type.allocatable(), r.asResources())).hasValue(Math.min(byCpu, byMemory));
    }

    @Property
    void atLeastOneWheneverThePodFits(@ForAll("types") InstanceType type, @ForAll("requests") Request r) {
        Assume.that(r.milliCpu() <= type.vcpu() * 1000L && r.mib() <= type.memoryMib());

        assertThat(Density.of(type.allocatable(), r.asResources()).orElseThrow())
                .isGreaterThanOrEqualTo(1);
    }

    @Property
    void zeroWhenThePodDoesNotFit(@ForAll("types") InstanceType type, @ForAll("requests") Request r) {
        Assume.that(r.milliCpu() > type.vcpu() * 1000L || r.mib() > type.memoryMib());

        assertThat(Density.of(type.allocatable(), r.asResources())).hasValue(0);
    }

    @Property
    void computableForEveryRenderedSlot(@ForAll("types") InstanceType type, @ForAll("requests") Request r) {
        Offering offering = new Offering(type.name(), "z", CapacityType.ON_DEMAND, 1, r.asResources(), Map.of());
        InstanceTypeCatalog catalog = new InstanceTypeCatalog(List.of(type));
        Machine slot = Offerings.renderSlots("p", List.of(offering), catalog, Arbs.DEFAULT_PRICES)
                .get(0);

        assertThat(Density.of(slot)).isPresent();
    }
}
