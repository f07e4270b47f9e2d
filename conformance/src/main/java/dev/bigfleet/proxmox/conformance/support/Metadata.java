package dev.bigfleet.proxmox.conformance.support;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Awkward shard_metadata samples and a byte-for-byte comparison. The provider must echo metadata
 * verbatim: NUL, control bytes, unicode and empty values included, never truncated.
 */
public final class Metadata {
    private Metadata() {}

    /**
     * {@code n} entries (n ≥ 12) mixing NUL, control bytes, DEL, multi-byte and supplementary
     * unicode, empty values and long values, plus a few awkward keys.
     */
    public static Map<String, String> awkward(int n) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("nul", "\u0000");
        m.put("nul-inside", "before\u0000after");
        m.put("controls", "\u0001\u0002\u0003\u0007\b\t\n\u000b\f\r\u001b\u001f");
        m.put("del", "\u007f");
        m.put("empty", "");
        m.put("also-empty", "");
        m.put("cjk", "日本語のテキスト");
        m.put("emoji", "🚀🛰️👩‍🚀");
        m.put("rtl", "שלום عليكم");
        m.put("combining", "e\u0301\u0308");
        m.put("ключ", "значение");
        m.put("key with spaces and\ttab", "  padded  ");
        m.put("example.com/slashes.and-dots_", "a=b,c=d;e");
        int i = 0;
        while (m.size() < n) {
            m.put(String.format("k%03d", i), i % 5 == 0 ? "" : "value-" + i + "-\u0000-" + "€".repeat(i % 7));
            i++;
        }
        return m;
    }

    /** {@code entries} keys of the form {@code key-00001} with short values. */
    public static Map<String, String> manyKeys(int entries) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < entries; i++) {
            m.put(String.format("key-%05d", i), "v" + i);
        }
        return m;
    }

    /** {@code entries} keys whose values together weigh about {@code totalBytes}. */
    public static Map<String, String> heavy(int entries, int totalBytes) {
        Map<String, String> m = new LinkedHashMap<>();
        int each = Math.max(1, totalBytes / entries);
        for (int i = 0; i < entries; i++) {
            m.put("heavy-" + i, Character.toString('a' + (i % 26)).repeat(each));
        }
        return m;
    }

    /** Total UTF-8 size of keys and values. */
    public static long bytes(Map<String, String> m) {
        long total = 0;
        for (Map.Entry<String, String> e : m.entrySet()) {
            total += e.getKey().getBytes(StandardCharsets.UTF_8).length;
            total += e.getValue().getBytes(StandardCharsets.UTF_8).length;
        }
        return total;
    }

    /** Fails unless {@code actual} holds exactly the keys and values of {@code expected}, byte for byte. */
    public static void assertVerbatim(Map<String, String> expected, Map<String, String> actual, String where) {
        Map<String, String> missing = new TreeMap<>();
        Map<String, String> different = new TreeMap<>();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            String got = actual.get(e.getKey());
            if (got == null) {
                missing.put(e.getKey(), e.getValue());
            } else if (!Arrays.equals(
                    got.getBytes(StandardCharsets.UTF_8), e.getValue().getBytes(StandardCharsets.UTF_8))) {
                different.put(e.getKey(), "expected " + escape(e.getValue()) + " got " + escape(got));
            }
        }
        Map<String, String> extra = new TreeMap<>();
        for (Map.Entry<String, String> e : actual.entrySet()) {
            if (!expected.containsKey(e.getKey())) {
                extra.put(e.getKey(), e.getValue());
            }
        }
        if (!missing.isEmpty() || !different.isEmpty() || !extra.isEmpty()) {
            throw new AssertionError(where + ": shard_metadata not verbatim (" + expected.size() + " expected, "
                    + actual.size() + " returned); missing keys " + escapeKeys(missing)
                    + ", changed " + escapeKeys(different) + ", unexpected keys " + escapeKeys(extra));
        }
    }

    private static String escapeKeys(Map<String, String> m) {
        StringBuilder sb = new StringBuilder("[");
        int shown = 0;
        for (Map.Entry<String, String> e : m.entrySet()) {
            if (shown++ == 8) {
                sb.append(", ... ").append(m.size() - 8).append(" more");
                break;
            }
            if (shown > 1) {
                sb.append(", ");
            }
            sb.append(escape(e.getKey()));
            if (e.getValue().startsWith("expected ")) {
                sb.append(": ").append(e.getValue());
            }
        }
        return sb.append(']').toString();
    }

    /** Java-escapes control characters and truncates long strings for messages. */
    public static String escape(String s) {
        StringBuilder sb = new StringBuilder("\"");
        int limit = Math.min(s.length(), 80);
        for (int i = 0; i < limit; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (s.length() > limit) {
            sb.append("...(").append(s.length()).append(" chars)");
        }
        return sb.append('"').toString();
    }
}
