package dev.bigfleet.proxmox.backend.proxmox.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Request parameters in the form Proxmox reads: {@code application/x-www-form-urlencoded}, one key
 * repeated per element for arrays, booleans as {@code 1}/{@code 0}. Used for query strings too.
 */
public final class FormParams {
    private final List<Map.Entry<String, String>> entries;

    private FormParams(List<Map.Entry<String, String>> entries) {
        this.entries = List.copyOf(entries);
    }

    public static FormParams none() {
        return new FormParams(List.of());
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** {@code k=v&k2=v2}; {@link URLEncoder} turns a literal {@code +} into {@code %2B} as Proxmox needs. */
    public String encode() {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> e : entries) {
            if (out.length() > 0) {
                out.append('&');
            }
            out.append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    /** The parameters in the order they were added, for a multipart body. */
    List<Map.Entry<String, String>> entries() {
        return entries;
    }

    /** The parameter names, for error messages (values may be secret). */
    public List<String> names() {
        return entries.stream().map(Map.Entry::getKey).distinct().toList();
    }

    public static final class Builder {
        private final List<Map.Entry<String, String>> entries = new ArrayList<>();

        private Builder() {}

        public Builder add(String name, String value) {
            entries.add(Map.entry(name, value));
            return this;
        }

        public Builder add(String name, long value) {
            return add(name, Long.toString(value));
        }

        public Builder flag(String name, boolean value) {
            return add(name, value ? "1" : "0");
        }

        /** An array parameter: the key once per element, in order. */
        public Builder addAll(String name, List<String> values) {
            values.forEach(v -> add(name, v));
            return this;
        }

        public FormParams build() {
            return new FormParams(entries);
        }
    }
}
