package dev.bigfleet.proxmox.server.config;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** The known name a typo most likely meant, for "did you mean" in startup errors. */
public final class NearestName {
    private NearestName() {}

    /** The known name within a few edits of {@code typed} (about a third of its length), if any. */
    public static Optional<String> to(String typed, Collection<String> known) {
        int limit = Math.max(2, typed.length() / 3);
        LevenshteinDistance distance = new LevenshteinDistance(limit);
        return known.stream()
                .filter(k -> distance.apply(typed, k) >= 0)
                .min(Comparator.comparingInt((String k) -> distance.apply(typed, k))
                        .thenComparing(k -> k));
    }

    /** {@code " (did you mean \"x\"?)"}, or the empty string. */
    public static String hint(String typed, Collection<String> known) {
        return to(typed, known).map(k -> " (did you mean \"" + k + "\"?)").orElse("");
    }
}
