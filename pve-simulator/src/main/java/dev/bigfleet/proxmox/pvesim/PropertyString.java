package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A property-string format ({@code enabled=1,fstrim_cloned_disks=0}, {@code virtio=MAC,bridge=vmbr0})
 * checked the way pve-common's {@code parse_property_string} checks it, with its error texts: an
 * unknown key, a duplicate, a value without a key, and each key's own type check.
 */
final class PropertyString {
    enum Kind {
        BOOLEAN,
        INTEGER,
        STRING
    }

    /** One key. {@code check} returns an error for a bad string value, or null. */
    record Key(String name, Kind kind, long min, long max, List<String> allowed, Function<String, String> check) {}

    private final Map<String, Key> keys = new LinkedHashMap<>();
    private final Map<String, String> aliases = new LinkedHashMap<>();
    private final Map<String, String> keyAliases = new LinkedHashMap<>();
    private String defaultKey;
    private final List<String> required = new java.util.ArrayList<>();

    PropertyString bool(String name) {
        return add(new Key(name, Kind.BOOLEAN, 0, 0, null, null));
    }

    PropertyString integer(String name, long min, long max) {
        return add(new Key(name, Kind.INTEGER, min, max, null, null));
    }

    PropertyString string(String name, Function<String, String> check) {
        return add(new Key(name, Kind.STRING, 0, 0, null, check));
    }

    PropertyString oneOf(String name, List<String> allowed) {
        return add(new Key(name, Kind.STRING, 0, 0, List.copyOf(allowed), null));
    }

    /** The key a bare value (no {@code =}) sets. */
    PropertyString defaultKey(String name) {
        this.defaultKey = name;
        return this;
    }

    /** A key that must be given (each call adds one). */
    PropertyString requires(String name) {
        required.add(name);
        return this;
    }

    /** {@code alias} is another name of {@code target} (like {@code freeze-fs-on-backup}). */
    PropertyString alias(String alias, String target) {
        aliases.put(alias, target);
        return this;
    }

    /** {@code virtio=MAC}: the key itself is the value of {@code keyAlias}, its value that of {@code alias}. */
    PropertyString keyAlias(String name, String keyAlias, String alias) {
        keyAliases.put(name, keyAlias);
        aliases.put(name, alias);
        return this;
    }

    private PropertyString add(Key k) {
        keys.put(k.name(), k);
        return this;
    }

    /**
     * @return the parsed keys (aliases resolved), or throws {@link IllegalArgumentException} with
     *     the text Proxmox puts after {@code invalid format - }
     */
    Map<String, String> parse(String data) {
        return parse(data, "");
    }

    /**
     * As {@link #parse(String)}, for a value at {@code path} (a parameter's name, or {@code
     * map[0]} for an array's item): each key's error is named {@code path.key}, as pve-common's
     * {@code check_object} names it.
     */
    Map<String, String> parse(String data, String path) {
        String prefix = path.isEmpty() ? "" : path + ".";
        Map<String, String> res = new LinkedHashMap<>();
        for (String part : data.split(",", -1)) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            if (eq > 0 && eq < part.length() - 1) {
                String k = part.substring(0, eq);
                String v = part.substring(eq + 1);
                if (res.containsKey(k)) {
                    throw new IllegalArgumentException("duplicate key in comma-separated list property: " + k);
                }
                String target = aliases.get(k);
                if (target != null) {
                    String keyAlias = keyAliases.get(k);
                    if (keyAlias != null) {
                        if (res.containsKey(keyAlias)) {
                            throw new IllegalArgumentException("key alias '" + keyAlias + "' is already defined");
                        }
                        res.put(keyAlias, k);
                    }
                    k = target;
                    if (res.containsKey(k)) {
                        throw new IllegalArgumentException("key '" + k + "' is already defined (via alias)");
                    }
                }
                if (!keys.containsKey(k)) {
                    throw new IllegalArgumentException("invalid key in comma-separated list property: " + k);
                }
                res.put(k, v);
            } else if (eq < 0) {
                if (defaultKey == null) {
                    throw new IllegalArgumentException("value without key, but schema does not define a default key");
                }
                if (res.containsKey(defaultKey)) {
                    throw new IllegalArgumentException("duplicate key in comma-separated list property: " + defaultKey);
                }
                res.put(defaultKey, part);
            } else {
                throw new IllegalArgumentException("missing key in comma-separated list property");
            }
        }
        Map<String, String> errors = new TreeMap<>();
        for (Map.Entry<String, String> e : res.entrySet()) {
            String problem = check(keys.get(e.getKey()), e.getValue());
            if (problem != null) {
                errors.put(prefix + e.getKey(), problem);
            }
        }
        for (String key : required) {
            if (!res.containsKey(key)) {
                errors.put(prefix + key, "property is missing and it is not optional");
            }
        }
        if (!errors.isEmpty()) {
            StringBuilder b = new StringBuilder("format error");
            errors.forEach((k, v) -> b.append('\n').append(k).append(": ").append(v));
            throw new IllegalArgumentException(b.toString());
        }
        return res;
    }

    /** A checker for {@link ParamSchema#string}: null when valid, else Proxmox's error text. */
    Checker checker() {
        return new Checker(this, v -> {
            try {
                parse(v);
                return null;
            } catch (IllegalArgumentException e) {
                return "invalid format - " + e.getMessage();
            }
        });
    }

    /** A checker of this format that {@code check} does, for a value with rules beyond its keys. */
    Checker checker(Function<String, String> check) {
        return new Checker(this, check);
    }

    /**
     * A parameter's check that is this property-string format's, so that the keys a parameter
     * takes can be read back (to compare them with Proxmox's published schema).
     */
    record Checker(PropertyString format, Function<String, String> check) implements Function<String, String> {
        @Override
        public String apply(String value) {
            return check.apply(value);
        }
    }

    /** The keys, in declaration order. */
    Map<String, Key> keys() {
        return java.util.Collections.unmodifiableMap(keys);
    }

    /** Each alias and the key it names ({@code virtio} for {@code macaddr}). */
    Map<String, String> aliases() {
        return java.util.Collections.unmodifiableMap(aliases);
    }

    private static final Pattern BOOLEAN = Pattern.compile("(?i)1|on|yes|true|0|off|no|false");

    private static String check(Key key, String value) {
        if (key == null) {
            return null;
        }
        switch (key.kind()) {
            case BOOLEAN:
                return BOOLEAN.matcher(value).matches() ? null : "type check ('boolean') failed - got '" + value + "'";
            case INTEGER:
                long n;
                try {
                    n = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    return "type check ('integer') failed - got '" + value + "'";
                }
                if (n < key.min()) {
                    return "value must have a minimum value of " + key.min();
                }
                return n > key.max() ? "value must have a maximum value of " + key.max() : null;
            default:
                if (key.allowed() != null && !key.allowed().contains(value)) {
                    return "value '" + value + "' does not have a value in the enumeration '"
                            + String.join(", ", key.allowed()) + "'";
                }
                return key.check() == null ? null : key.check().apply(value);
        }
    }
}
