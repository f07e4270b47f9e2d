package dev.bigfleet.proxmox.api;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * USD per hour of each instance type: an explicit override, else a synthetic price from the
 * type's vCPUs and memory, else 0 for a type the catalog does not know.
 */
public final class PriceList {
    public static final double DEFAULT_PER_VCPU_HOUR = 0.0030;
    public static final double DEFAULT_PER_GIB_HOUR = 0.0008;

    // Plain decimal only. Double.parseDouble would also take "1d", "2f", hex floats, "NaN" and
    // "Infinity", none of which an operator means as a price.
    private static final Pattern DECIMAL = Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");

    private final Map<String, Double> overrides;
    private final double perVcpuHour;
    private final double perGibHour;

    public PriceList(Map<String, Double> overrides, double perVcpuHour, double perGibHour) {
        overrides.forEach((name, price) -> requireValidPrice("price of \"" + name + "\"", price));
        requireValidPrice("price per vCPU-hour", perVcpuHour);
        requireValidPrice("price per GiB-hour", perGibHour);
        this.overrides = Map.copyOf(overrides);
        this.perVcpuHour = perVcpuHour;
        this.perGibHour = perGibHour;
    }

    private static void requireValidPrice(String what, double price) {
        if (Double.isNaN(price) || Double.isInfinite(price) || price < 0) {
            throw new IllegalArgumentException(what + " must be a finite number >= 0, got " + price);
        }
    }

    /**
     * Parses {@code --prices}: {@code type=usd} pairs separated by commas. Blank means none.
     *
     * @throws IllegalArgumentException naming the bad entry
     */
    public static Map<String, Double> parseOverrides(String value) {
        Map<String, Double> prices = new LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return prices;
        }
        for (String raw : value.split(",", -1)) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("entry \"" + entry + "\" is not type=usd");
            }
            String name = entry.substring(0, eq).trim();
            String number = entry.substring(eq + 1).trim();
            if (name.isEmpty()) {
                throw new IllegalArgumentException("entry \"" + entry + "\" has no instance type");
            }
            if (!DECIMAL.matcher(number).matches()) {
                throw new IllegalArgumentException(
                        "price of \"" + name + "\" is not a decimal number: \"" + number + "\"");
            }
            // "+ 0.0" turns -0 into 0, so "-0" is an ordinary free price rather than a negative zero.
            double price = Double.parseDouble(number) + 0.0;
            // Huge exponents overflow to Infinity, and a negative price makes no sense.
            requireValidPrice("price of \"" + name + "\"", price);
            if (prices.put(name, price) != null) {
                throw new IllegalArgumentException("price of \"" + name + "\" is given twice");
            }
        }
        return prices;
    }

    public double priceOf(String instanceType, InstanceTypeCatalog catalog) {
        Double override = overrides.get(instanceType);
        if (override != null) {
            return override;
        }
        return catalog.find(instanceType)
                .map(t -> t.vcpu() * perVcpuHour + (t.memoryMib() / 1024.0) * perGibHour)
                .orElse(0.0);
    }

    /** Where a type's price comes from: {@code override}, {@code synthetic} or {@code unknown}. */
    public String sourceOf(String instanceType, InstanceTypeCatalog catalog) {
        if (overrides.containsKey(instanceType)) {
            return "override";
        }
        return catalog.contains(instanceType) ? "synthetic" : "unknown";
    }

    public Optional<Double> override(String instanceType) {
        return Optional.ofNullable(overrides.get(instanceType));
    }
}
