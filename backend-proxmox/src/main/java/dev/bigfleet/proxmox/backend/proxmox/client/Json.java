package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Optional;

/**
 * Lenient field readers for Proxmox JSON, which renders numbers as strings in places
 * ({@code nextid}, {@code memory}), booleans as {@code 1}/{@code 0} (sometimes quoted), and leaves
 * fields out instead of sending {@code null}.
 */
final class Json {
    private Json() {}

    static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || v.isNull() || v.isContainerNode()) {
            return Optional.empty();
        }
        return Optional.of(v.asText());
    }

    static String textOr(JsonNode node, String field, String fallback) {
        return text(node, field).orElse(fallback);
    }

    /** A number, a numeric string, or a property string like {@code current=4096,...}. */
    static long number(JsonNode node, String field, long fallback) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (v.isNumber()) {
            return v.asLong();
        }
        return leadingNumber(v.asText(), fallback);
    }

    static long leadingNumber(String text, long fallback) {
        String t = text.trim();
        int eq = t.indexOf("current=");
        if (eq >= 0) {
            t = t.substring(eq + "current=".length());
        }
        int end = 0;
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        if (end == 0) {
            return fallback;
        }
        try {
            return Long.parseLong(t.substring(0, end));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** {@code 1}/{@code 0}, {@code "1"}/{@code "0"} or {@code true}/{@code false}; absent is empty. */
    static Optional<Boolean> flag(JsonNode node, String field) {
        JsonNode v = node == null ? null : node.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (v.isBoolean()) {
            return Optional.of(v.asBoolean());
        }
        if (v.isNumber()) {
            return Optional.of(v.asLong() != 0);
        }
        return Optional.of(truthy(v.asText()));
    }

    static boolean truthy(String text) {
        switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "1":
            case "true":
            case "yes":
            case "on":
                return true;
            default:
                return false;
        }
    }
}
