package dev.bigfleet.proxmox.backend.proxmox.client;

import java.util.Arrays;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A VM's tags. Proxmox takes them separated by any mix of {@code ;}, {@code ,} and whitespace and
 * by default stores them lower-cased, de-duplicated and sorted, joined with {@code ;}; readers
 * compare lower-cased.
 */
public final class TagList {
    private static final TagList EMPTY = new TagList(new TreeSet<>());

    private final SortedSet<String> tags;

    private TagList(SortedSet<String> tags) {
        this.tags = tags;
    }

    public static TagList parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return EMPTY;
        }
        return new TagList(Arrays.stream(raw.split("[;,\\s]+"))
                .filter(t -> !t.isEmpty())
                .map(t -> t.toLowerCase(Locale.ROOT))
                .collect(Collectors.toCollection(TreeSet::new)));
    }

    public static TagList of(String... tags) {
        return parse(String.join(";", tags));
    }

    public boolean contains(String tag) {
        return tags.contains(tag.toLowerCase(Locale.ROOT));
    }

    public boolean anyStartsWith(String prefix) {
        String p = prefix.toLowerCase(Locale.ROOT);
        return tags.stream().anyMatch(t -> t.startsWith(p));
    }

    /** The tags starting {@code prefix}, with the prefix cut off, in order. */
    public java.util.List<String> suffixesOf(String prefix) {
        String p = prefix.toLowerCase(Locale.ROOT);
        return tags.stream()
                .filter(t -> t.startsWith(p))
                .map(t -> t.substring(p.length()))
                .toList();
    }

    /** These tags and {@code tag}. */
    public TagList with(String tag) {
        SortedSet<String> next = new TreeSet<>(tags);
        next.add(tag.toLowerCase(Locale.ROOT));
        return new TagList(next);
    }

    /** These tags without {@code tag}. */
    public TagList without(String tag) {
        SortedSet<String> next = new TreeSet<>(tags);
        next.remove(tag.toLowerCase(Locale.ROOT));
        return new TagList(next);
    }

    public boolean isEmpty() {
        return tags.isEmpty();
    }

    /** The normalised form Proxmox stores with its default tag style. */
    public String wire() {
        return String.join(";", tags);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TagList && tags.equals(((TagList) o).tags);
    }

    @Override
    public int hashCode() {
        return tags.hashCode();
    }

    @Override
    public String toString() {
        return wire();
    }
}
