package dev.bigfleet.proxmox.api;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Validation of configured offerings and the generation of the default ones. */
public final class Offerings {
    private Offerings() {}

    /**
     * Checks every offering against the catalog, and that no two share a (type, zone) pair, which
     * would give their slots the same ids.
     *
     * @throws IllegalArgumentException naming the first bad entry (1-based) and what is wrong
     */
    public static void validate(List<Offering> offerings, InstanceTypeCatalog catalog) {
        if (offerings.isEmpty()) {
            throw new IllegalArgumentException("no offerings: at least one is required");
        }
        Set<List<String>> seen = new HashSet<>();
        for (int i = 0; i < offerings.size(); i++) {
            Offering o = offerings.get(i);
            String where = "offering #" + (i + 1) + " (" + o.instanceType() + " in " + o.zone() + ")";
            if (o.instanceType().isBlank()) {
                throw new IllegalArgumentException("offering #" + (i + 1) + ": instance_type is required");
            }
            requireName(where, "instance_type", o.instanceType());
            if (!catalog.contains(o.instanceType())) {
                throw new IllegalArgumentException(where + ": instance_type \"" + o.instanceType()
                        + "\" is not in the catalog (known: " + String.join(", ", catalog.names()) + ")");
            }
            if (o.zone().isBlank()) {
                throw new IllegalArgumentException("offering #" + (i + 1) + ": zone is required");
            }
            requireName(where, "zone", o.zone());
            if (o.capacityType() != CapacityType.ON_DEMAND) {
                throw new IllegalArgumentException(where + ": only on_demand capacity is offered");
            }
            if (o.count() <= 0) {
                throw new IllegalArgumentException(where + ": count must be > 0, got " + o.count());
            }
            if (!seen.add(List.of(o.instanceType(), o.zone()))) {
                throw new IllegalArgumentException(
                        where + ": another offering already has this instance_type and zone; merge their counts");
            }
        }
    }

    private static void requireName(String where, String field, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            // isSpaceChar also catches no-break spaces, which isWhitespace lets through.
            if (c == '/' || Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException(
                        where + ": " + field + " \"" + value + "\" must not contain '/', spaces or control characters");
            }
        }
    }

    /**
     * The offerings used when none are configured: the first and last catalog names ("small" and
     * "large") in two zones, {@code seedCount} slots spread over the four buckets. Buckets that land
     * on the same (type, zone), as with one node or a one-type catalog, are merged so ids stay unique.
     *
     * @param zoneA the first zone
     * @param zoneB the second zone; may be the same as {@code zoneA}
     */
    public static List<Offering> defaults(InstanceTypeCatalog catalog, String zoneA, String zoneB, int seedCount) {
        int seed = seedCount <= 0 ? 16 : seedCount;
        List<String> names = catalog.names();
        String small = names.get(0);
        String large = names.get(names.size() - 1);
        String[][] buckets = {{small, zoneA}, {large, zoneA}, {small, zoneB}, {large, zoneB}};
        // Keyed by the (type, zone) pair itself: a joined string could make two different pairs equal.
        Map<List<String>, int[]> counts = new LinkedHashMap<>();
        for (int i = 0; i < buckets.length; i++) {
            int count = seed / 4 + (i < seed % 4 ? 1 : 0);
            if (count == 0) {
                continue;
            }
            counts.computeIfAbsent(List.of(buckets[i][0], buckets[i][1]), k -> new int[1])[0] += count;
        }
        List<Offering> out = new ArrayList<>();
        for (Map.Entry<List<String>, int[]> e : counts.entrySet()) {
            out.add(new Offering(
                    e.getKey().get(0),
                    e.getKey().get(1),
                    CapacityType.ON_DEMAND,
                    e.getValue()[0],
                    Map.of("cpu", "1", "memory", "2Gi"),
                    Map.of()));
        }
        return out;
    }

    /** Renders every offering's slots as Speculative machines, in offering order. */
    public static List<Machine> renderSlots(
            String provider, List<Offering> offerings, InstanceTypeCatalog catalog, PriceList prices) {
        List<Machine> slots = new ArrayList<>();
        for (Offering o : offerings) {
            Map<String, String> allocatable = catalog.find(o.instanceType())
                    .map(InstanceType::allocatable)
                    .orElse(Map.of());
            double price = prices.priceOf(o.instanceType(), catalog);
            for (int i = 0; i < o.count(); i++) {
                slots.add(Machine.builder(o.slotId(provider, i))
                        .state(MachineState.SPECULATIVE)
                        .instanceType(o.instanceType())
                        .zone(o.zone())
                        .capacityType(o.capacityType())
                        .pricePerHour(price)
                        .interruptionProbability(0)
                        .resources(o.resources())
                        .labels(o.labels())
                        .allocatable(allocatable)
                        .build());
            }
        }
        return slots;
    }
}
