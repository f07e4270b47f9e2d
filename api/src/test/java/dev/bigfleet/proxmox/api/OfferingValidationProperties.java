package dev.bigfleet.proxmox.api;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.Arbs.Valid;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * One bad entry anywhere in an otherwise valid offerings file is always refused, and the message
 * names that entry as {@code offering #N} so the operator knows which one to fix.
 */
class OfferingValidationProperties {

    enum Spoil {
        EMPTY_TYPE,
        UNKNOWN_TYPE,
        EMPTY_ZONE,
        ZONE_WITH_SEPARATOR,
        TYPE_WITH_SEPARATOR,
        COUNT,
        CAPACITY,
        DUPLICATE
    }

    /** '/' and the space characters that would break slot ids or the VM description marker. */
    private static final List<Character> SEPARATORS = List.of('/', ' ', '\t', '\n', '\u00a0', '\u2003');

    private static final List<String> BLANKS = List.of("", " ", "\t");

    private static final List<CapacityType> NOT_ON_DEMAND =
            List.of(CapacityType.SPOT, CapacityType.RESERVED, CapacityType.BARE_METAL);

    /** Random choices a spoiler may use; each kind reads the ones it needs. */
    record Knobs(int pick, int position, String name, int badCount) {}

    /** An offerings list with one entry spoiled, and the 1-based number the error must name. */
    record Case(InstanceTypeCatalog catalog, List<Offering> offerings, int badEntry, String what) {}

    @Property
    void validOfferingsAreAccepted(@ForAll("valid") Valid v) {
        assertThatCode(() -> Offerings.validate(v.offerings(), v.catalog())).doesNotThrowAnyException();
    }

    @Property(tries = 3000)
    void aSpoiledEntryIsRefusedByNumber(@ForAll("spoiled") Case c) {
        assertThatThrownBy(() -> Offerings.validate(c.offerings(), c.catalog()))
                .as(c.what())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("offering #" + c.badEntry() + "[ :](?s).*");
    }

    @Provide
    Arbitrary<Valid> valid() {
        return Arbs.valid();
    }

    @Provide
    Arbitrary<Case> spoiled() {
        Arbitrary<Knobs> knobs = Combinators.combine(
                        Arbitraries.integers().between(0, 1_000),
                        Arbitraries.integers().between(0, 1_000),
                        Arbs.name(),
                        // 0 is the boundary; knobs have no edge cases, so ask for it explicitly.
                        Arbitraries.oneOf(
                                Arbitraries.just(0), Arbitraries.integers().between(Integer.MIN_VALUE, -1)))
                .as(Knobs::new)
                .withoutEdgeCases();
        return Combinators.combine(Arbs.valid(), Arbitraries.of(Spoil.class), knobs)
                .as(OfferingValidationProperties::spoil);
    }

    private static Case spoil(Valid v, Spoil kind, Knobs k) {
        List<Offering> list = new ArrayList<>(v.offerings());
        int at = k.pick() % list.size();
        Offering o = list.get(at);
        Offering bad;
        switch (kind) {
            case EMPTY_TYPE -> bad = withType(o, BLANKS.get(k.position() % BLANKS.size()));
            case UNKNOWN_TYPE -> {
                String unknown = k.name();
                while (v.catalog().contains(unknown)) {
                    unknown += "x";
                }
                bad = withType(o, unknown);
            }
            case EMPTY_ZONE -> bad = withZone(o, BLANKS.get(k.position() % BLANKS.size()));
            case ZONE_WITH_SEPARATOR -> bad = withZone(o, insertSeparator(o.zone(), k));
            case TYPE_WITH_SEPARATOR -> bad = withType(o, insertSeparator(o.instanceType(), k));
            case COUNT -> bad = withCount(o, k.badCount());
            case CAPACITY -> bad = withCapacity(o, NOT_ON_DEMAND.get(k.position() % NOT_ON_DEMAND.size()));
            case DUPLICATE -> {
                // Same type and zone as entry #at+1, placed anywhere after it: the later one is named.
                int pos = at + 1 + k.position() % (list.size() - at);
                list.add(pos, withCount(o, 1 + k.position() % 40));
                return new Case(v.catalog(), list, pos + 1, "duplicate of #" + (at + 1) + " " + list);
            }
            default -> throw new IllegalStateException(kind.toString());
        }
        list.set(at, bad);
        return new Case(v.catalog(), list, at + 1, kind + " " + list);
    }

    private static String insertSeparator(String name, Knobs k) {
        int pos = k.position() % (name.length() + 1);
        char c = SEPARATORS.get(k.pick() % SEPARATORS.size());
        return name.substring(0, pos) + c + name.substring(pos);
    }

    private static Offering withType(Offering o, String type) {
        return new Offering(type, o.zone(), o.capacityType(), o.count(), o.resources(), o.labels());
    }

    private static Offering withZone(Offering o, String zone) {
        return new Offering(o.instanceType(), zone, o.capacityType(), o.count(), o.resources(), o.labels());
    }

    private static Offering withCount(Offering o, int count) {
        return new Offering(o.instanceType(), o.zone(), o.capacityType(), count, o.resources(), o.labels());
    }

    private static Offering withCapacity(Offering o, CapacityType capacity) {
        return new Offering(o.instanceType(), o.zone(), capacity, o.count(), o.resources(), o.labels());
    }
}
