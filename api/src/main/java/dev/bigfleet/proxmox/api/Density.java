package dev.bigfleet.proxmox.api;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.OptionalLong;

/**
 * How many pods of one shape fit on a machine: for every resource the pod requests and the machine
 * has, floor(allocatable / request), and the smallest of those. A scheduler reads it off the slot
 * before creating anything, which is why {@code resources} and {@code allocatable} differ.
 */
public final class Density {
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private Density() {}

    /** The density of a machine from its own {@code allocatable} and {@code resources}. */
    public static OptionalLong of(Machine machine) {
        return of(machine.allocatable(), machine.resources());
    }

    /**
     * floor(allocatable / resources), the minimum over the resources present in both maps whose
     * request is above zero. Empty when no such resource exists, or when a quantity of one of them
     * cannot be read or is negative: a guess there could overstate what fits.
     *
     * <p>{@code cpu} is read as cores ({@code 2}, {@code 1.5}, {@code 500m}); every other resource
     * as a binary quantity ({@code 2Gi}, {@code 512Mi}, plain bytes or plain counts).
     */
    public static OptionalLong of(Map<String, String> allocatable, Map<String, String> resources) {
        long best = Long.MAX_VALUE;
        boolean any = false;
        for (Map.Entry<String, String> request : resources.entrySet()) {
            String have = allocatable.get(request.getKey());
            if (have == null) {
                continue;
            }
            BigDecimal need = parse(request.getKey(), request.getValue());
            BigDecimal room = parse(request.getKey(), have);
            if (need == null || room == null) {
                return OptionalLong.empty();
            }
            if (need.signum() == 0) {
                // A zero request constrains nothing.
                continue;
            }
            BigDecimal fits = room.divide(need, 0, RoundingMode.FLOOR);
            best = Math.min(best, fits.min(LONG_MAX).longValueExact());
            any = true;
        }
        return any ? OptionalLong.of(best) : OptionalLong.empty();
    }

    /** The quantity as a comparable number, or null when it is unreadable or negative. */
    private static BigDecimal parse(String resource, String quantity) {
        try {
            BigDecimal value =
                    "cpu".equals(resource) ? Quantities.cpuToCores(quantity) : Quantities.memoryToMib(quantity);
            return value.signum() < 0 ? null : value;
        } catch (IllegalArgumentException | ArithmeticException e) {
            return null;
        }
    }
}
