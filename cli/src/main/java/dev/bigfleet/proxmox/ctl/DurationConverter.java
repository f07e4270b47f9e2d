package dev.bigfleet.proxmox.ctl;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations as the provider's flags write them: {@code 500ms}, {@code 90s}, {@code 2m}, {@code 1h30m}, or bare seconds. */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        String s = value.trim();
        if (s.matches("\\d+")) {
            return Duration.ofSeconds(Long.parseLong(s));
        }
        Matcher m = PART.matcher(s);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        default -> Duration.ofHours(n);
                    });
            end = m.end();
        }
        if (end == 0 || end != s.length()) {
            throw new TypeConversionException("\"" + value + "\" is not a duration (e.g. 90s, 2m, 1h30m)");
        }
        return total;
    }
}
