package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** Tag lists: any of {@code ; , whitespace} separate on input; stored lower-cased, unique, sorted. */
final class Tags {
    private static final Pattern SEPARATORS = Pattern.compile("[;,\\s]+");
    private static final Pattern TAG = Pattern.compile("[a-z0-9_][a-z0-9_+.\\-]*", Pattern.CASE_INSENSITIVE);

    private Tags() {}

    /** @return the normalised list, or null when a tag has invalid characters */
    static List<String> normalise(String input) {
        TreeSet<String> out = new TreeSet<>();
        for (String t : SEPARATORS.split(input == null ? "" : input.trim(), -1)) {
            if (t.isEmpty()) {
                continue;
            }
            if (!TAG.matcher(t).matches()) {
                return null;
            }
            out.add(t.toLowerCase(Locale.ROOT));
        }
        return List.copyOf(out);
    }

    static List<String> split(Object stored) {
        if (stored == null) {
            return List.of();
        }
        List<String> l = normalise(stored.toString());
        return l == null ? List.of() : l;
    }
}
