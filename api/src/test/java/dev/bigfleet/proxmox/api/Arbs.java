package dev.bigfleet.proxmox.api;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Generators shared by the property classes. They combine and map rather than flatMap: nested
 * flatMaps rebuild generators on every try and made the suites ten times slower. The composites
 * have no edge cases: their cross product runs into the thousands, more than the tries.
 */
final class Arbs {
    static final PriceList DEFAULT_PRICES =
            new PriceList(Map.of(), PriceList.DEFAULT_PER_VCPU_HOUR, PriceList.DEFAULT_PER_GIB_HOUR);

    /** A catalog and offerings that pass validate against it. */
    record Valid(InstanceTypeCatalog catalog, List<Offering> offerings) {}

    private record Size(int vcpu, long mib) {}

    private record Draft(int typeIndex, String zone, int count, Map<String, String> labels) {}

    private Arbs() {}

    /** A name validate accepts: no '/', whitespace or control characters. */
    static Arbitrary<String> name() {
        return Arbitraries.strings()
                .withChars("abcdefghijklmnopqrstuvwxyz0123456789.-_")
                .ofMinLength(1)
                .ofMaxLength(10);
    }

    static Arbitrary<InstanceType> type(String name) {
        return size().map(s -> new InstanceType(name, s.vcpu(), s.mib(), 9000));
    }

    private static Arbitrary<Size> size() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 128),
                        Arbitraries.longs().between(1, 1 << 20))
                .as(Size::new);
    }

    /** A catalog of 1..6 distinctly named types. */
    static Arbitrary<InstanceTypeCatalog> catalog() {
        return Combinators.combine(
                        name().set().ofMinSize(1).ofMaxSize(6), size().list().ofSize(6))
                .as((names, sizes) -> {
                    List<InstanceType> types = new ArrayList<>();
                    int i = 0;
                    for (String n : names) {
                        Size s = sizes.get(i++);
                        types.add(new InstanceType(n, s.vcpu(), s.mib(), 9000));
                    }
                    return new InstanceTypeCatalog(types);
                })
                .withoutEdgeCases();
    }

    /** 1..8 offerings of known types with distinct (type, zone) pairs, and their catalog. */
    static Arbitrary<Valid> valid() {
        Arbitrary<Draft> draft = Combinators.combine(
                        Arbitraries.integers().between(0, 5),
                        name(),
                        Arbitraries.integers().between(1, 40),
                        Arbitraries.maps(Arbitraries.of("team", "env", "tier"), name())
                                .ofMaxSize(2))
                .as(Draft::new);
        return Combinators.combine(catalog(), draft.list().ofMinSize(1).ofMaxSize(8))
                .as((catalog, drafts) -> new Valid(catalog, offerings(catalog, drafts)))
                .withoutEdgeCases();
    }

    private static List<Offering> offerings(InstanceTypeCatalog catalog, List<Draft> drafts) {
        List<String> names = catalog.names();
        Set<List<String>> seen = new HashSet<>();
        List<Offering> out = new ArrayList<>();
        for (Draft d : drafts) {
            String type = names.get(d.typeIndex() % names.size());
            // Keep the first of each (type, zone): a repeat would be invalid.
            if (seen.add(List.of(type, d.zone()))) {
                out.add(new Offering(
                        type,
                        d.zone(),
                        CapacityType.ON_DEMAND,
                        d.count(),
                        Map.of("cpu", "1", "memory", "2Gi"),
                        d.labels()));
            }
        }
        return out;
    }
}
