package dev.bigfleet.proxmox.api;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Kubernetes quantity strings for the two resources a VM type has: CPU count and memory. */
public final class Quantities {
    private static final Pattern BINARY = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti)?$");
    private static final Pattern CPU = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?)(m)?$");

    private Quantities() {}

    /** {@code <n>Gi} when the MiB count is a whole number of GiB, otherwise {@code <n>Mi}. */
    public static String memoryFromMib(long mib) {
        if (mib % 1024 == 0) {
            return (mib / 1024) + "Gi";
        }
        return mib + "Mi";
    }

    /** Parses a memory quantity with a binary suffix (or none) into MiB; used for density. */
    public static BigDecimal memoryToMib(String quantity) {
        Matcher m = BINARY.matcher(quantity.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a memory quantity: \"" + quantity + "\"");
        }
        BigDecimal value = new BigDecimal(m.group(1));
        String suffix = m.group(2) == null ? "" : m.group(2);
        switch (suffix) {
            case "Ki":
                return value.divide(BigDecimal.valueOf(1024));
            case "Mi":
                return value;
            case "Gi":
                return value.multiply(BigDecimal.valueOf(1024));
            case "Ti":
                return value.multiply(BigDecimal.valueOf(1024L * 1024));
            default:
                return value.divide(BigDecimal.valueOf(1024L * 1024));
        }
    }

    /** Parses a CPU quantity ({@code 2}, {@code 1.5}, {@code 500m}) into cores. */
    public static BigDecimal cpuToCores(String quantity) {
        // A pattern rather than new BigDecimal(...) alone, which would also take "-1" and "1e9".
        Matcher m = CPU.matcher(quantity.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a CPU quantity: \"" + quantity + "\"");
        }
        BigDecimal value = new BigDecimal(m.group(1));
        return m.group(2) == null ? value : value.divide(BigDecimal.valueOf(1000));
    }
}
