package dev.bigfleet.proxmox.api;

import java.util.Optional;

/**
 * Slot ids: {@code <provider>/<capacity>/<instance_type>/<zone>/<index>}, the index zero-padded to
 * at least three digits. Parsed right to left, since only the provider label may contain {@code /}.
 */
public final class SlotId {
    private SlotId() {}

    public static String format(String provider, CapacityType capacity, String instanceType, String zone, int index) {
        if (index < 0) {
            throw new IllegalArgumentException("slot index must be >= 0, got " + index);
        }
        // Integer.toString always writes ASCII digits, whatever the JVM's locale (a Thai locale
        // would otherwise change every id); and it is far cheaper than a formatter at 100k slots.
        String digits = Integer.toString(index);
        String padded = digits.length() >= 3 ? digits : "000".substring(digits.length()) + digits;
        return provider + "/" + capacity.slotName() + "/" + instanceType + "/" + zone + "/" + padded;
    }

    /** The parts of a slot id. */
    public record Parts(String provider, CapacityType capacity, String instanceType, String zone, int index) {}

    /**
     * Splits an id that {@link #format} could have produced. Ids with a non-canonical index
     * ({@code 01}, {@code 0001}, non-ASCII digits) are refused, so a parsed id always formats back to
     * itself and two spellings never name the same slot.
     */
    public static Optional<Parts> parse(String id) {
        String[] right = new String[4];
        int end = id.length();
        for (int i = 3; i >= 0; i--) {
            int slash = id.lastIndexOf('/', end - 1);
            if (slash < 0) {
                return Optional.empty();
            }
            right[i] = id.substring(slash + 1, end);
            end = slash;
        }
        String provider = id.substring(0, end);
        try {
            CapacityType capacity = CapacityType.fromSlotName(right[0]);
            if (right[3].isEmpty() || !right[3].chars().allMatch(c -> c >= '0' && c <= '9')) {
                return Optional.empty();
            }
            Parts parts = new Parts(provider, capacity, right[1], right[2], Integer.parseInt(right[3]));
            if (!format(provider, capacity, parts.instanceType(), parts.zone(), parts.index())
                    .equals(id)) {
                return Optional.empty();
            }
            return Optional.of(parts);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
