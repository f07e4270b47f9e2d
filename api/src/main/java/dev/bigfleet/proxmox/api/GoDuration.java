package dev.bigfleet.proxmox.api;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations written the way Go's {@code time.ParseDuration} reads them: {@code 500ms}, {@code 90s},
 * {@code 2m}, {@code 1h30m}, {@code 1.5s}, or a bare {@code 0}. Operators carry these flags over
 * from the reference provider, so the syntax is kept.
 */
public final class GoDuration {
    // µ is U+00B5 (micro sign), μ is U+03BC (Greek mu); Go accepts both.
    private static final Pattern PART = Pattern.compile("([0-9]*(?:\\.[0-9]*)?)(ns|us|\u00b5s|\u03bcs|ms|s|m|h)");
    private static final BigInteger MAX_NANOS = BigInteger.valueOf(Long.MAX_VALUE);

    private GoDuration() {}

    public static Duration parse(String text) {
        String s = text == null ? "" : text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            // A lone sign is not a duration (Go rejects it too).
            throw invalid(text);
        }
        Matcher m = PART.matcher(s);
        BigDecimal nanos = BigDecimal.ZERO;
        int at = 0;
        while (at < s.length()) {
            if (!m.find(at)
                    || m.start() != at
                    || m.group(1).isEmpty()
                    || m.group(1).equals(".")) {
                throw invalid(text);
            }
            // Exact decimal arithmetic: 1.001h must be exactly 3603.6s, not a nanosecond short.
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unitNanos(m.group(2)))));
            at = m.end();
        }
        // Go truncates below a nanosecond and refuses anything that overflows int64 nanoseconds.
        BigInteger whole = nanos.setScale(0, RoundingMode.DOWN).toBigIntegerExact();
        if (whole.compareTo(MAX_NANOS) > 0) {
            throw new IllegalArgumentException("duration \"" + text + "\" is too large");
        }
        long n = whole.longValueExact();
        return Duration.ofNanos(negative ? -n : n);
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException(
                "invalid duration \"" + text + "\" (use Go syntax such as 500ms, 90s, 2m, 1h30m)");
    }

    private static long unitNanos(String unit) {
        switch (unit) {
            case "ns":
                return 1;
            case "us":
            case "\u00b5s":
            case "\u03bcs":
                return 1_000;
            case "ms":
                return 1_000_000;
            case "s":
                return 1_000_000_000L;
            case "m":
                return 60_000_000_000L;
            default:
                return 3_600_000_000_000L;
        }
    }

    /**
     * Formats like Go's {@code Duration.String()}: {@code 8m0s}, {@code 1h30m0s}, {@code 1.5s},
     * {@code 500ms}, {@code 1.5ms}, {@code 0s}.
     */
    public static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        if (d.isNegative()) {
            out.append('-');
            d = d.negated();
        }
        long seconds = d.getSeconds();
        int nanos = d.getNano();
        if (seconds == 0) {
            // Below a second Go switches to the largest unit that keeps an integer part.
            if (nanos < 1_000) {
                return out.append(nanos).append("ns").toString();
            }
            if (nanos < 1_000_000) {
                return out.append(withFraction(nanos, 1_000)).append("\u00b5s").toString();
            }
            return out.append(withFraction(nanos, 1_000_000)).append("ms").toString();
        }
        long minutes = seconds / 60;
        long hours = minutes / 60;
        if (hours > 0) {
            out.append(hours).append('h');
        }
        if (minutes > 0) {
            out.append(minutes % 60).append('m');
        }
        String frac = fraction(nanos, 1_000_000_000);
        return out.append(seconds % 60).append(frac).append('s').toString();
    }

    private static String withFraction(long value, long unit) {
        return (value / unit) + fraction(value % unit, unit);
    }

    /** {@code .5} for 500 of 1000, {@code ""} for 0: the digits of remainder/unit, trailing zeros dropped. */
    private static String fraction(long remainder, long unit) {
        if (remainder == 0) {
            return "";
        }
        int digits = Long.toString(unit).length() - 1;
        String padded = String.format(java.util.Locale.ROOT, "%0" + digits + "d", remainder);
        int end = padded.length();
        while (padded.charAt(end - 1) == '0') {
            end--;
        }
        return "." + padded.substring(0, end);
    }
}
