package dev.bigfleet.proxmox.pvesim;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Raw request parameters, each a list of strings (a form key repeated, or a JSON array). JSON
 * booleans become {@code 1}/{@code 0} here, which is why only form values can fail the strict
 * boolean check.
 */
final class Params {
    private final Map<String, List<String>> values;

    private Params(Map<String, List<String>> values) {
        this.values = values;
    }

    static Params empty() {
        return new Params(new LinkedHashMap<>());
    }

    /** {@code a=1&b=2}, as a query string or a form body; {@code +} is a space. */
    static Params fromForm(String encoded) {
        LinkedHashMap<String, List<String>> out = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return new Params(out);
        }
        for (String pair : encoded.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
        }
        return new Params(out);
    }

    static Params fromJson(JsonNode object) {
        LinkedHashMap<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            JsonNode v = e.getValue();
            if (v.isNull()) {
                continue;
            }
            List<String> list = new ArrayList<>();
            if (v.isArray()) {
                v.forEach(x -> list.add(scalar(x)));
            } else {
                list.add(scalar(v));
            }
            out.put(e.getKey(), list);
        }
        return new Params(out);
    }

    private static String scalar(JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue() ? "1" : "0";
        }
        if (v.isContainerNode()) {
            return v.toString();
        }
        return v.asText();
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // A stray % stays literal rather than failing the whole request.
            return s;
        }
    }

    /** Query values win over body values of the same name, as on a real server. */
    Params overriddenBy(Params other) {
        LinkedHashMap<String, List<String>> merged = new LinkedHashMap<>(values);
        merged.putAll(other.values);
        return new Params(merged);
    }

    Params with(String name, String value) {
        LinkedHashMap<String, List<String>> copy = new LinkedHashMap<>(values);
        copy.put(name, List.of(value));
        return new Params(copy);
    }

    Map<String, List<String>> asMap() {
        return values;
    }
}
