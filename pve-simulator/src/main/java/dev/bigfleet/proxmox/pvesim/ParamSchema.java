package dev.bigfleet.proxmox.pvesim;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Pattern;

/** The parameters an endpoint accepts, and their validation with Proxmox's error texts. */
final class ParamSchema {
    static final Pattern DNS_NAME =
            Pattern.compile("[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?)*");
    static final Function<String, String> DNS_NAME_CHECK =
            v -> DNS_NAME.matcher(v).matches() ? null : "invalid format - value does not look like a valid DNS name";
    static final Function<String, String> NODE_CHECK = v -> v.matches("[a-zA-Z0-9]([a-zA-Z0-9\\-]*[a-zA-Z0-9])?")
            ? null
            : "invalid format - value does not look like a valid node name";

    /** pve-access-control's {@code pve-poolid}: up to three levels of {@code [A-Za-z0-9.-_]+}. */
    static final Function<String, String> POOL_ID_CHECK = v -> {
        if (v.split("/", -1).length > 3) {
            return "invalid format - pool name '" + v + "' nested too deeply (max levels = 3)";
        }
        return v.matches("[A-Za-z0-9.\\-_]+(/[A-Za-z0-9.\\-_]+){0,2}")
                ? null
                : "invalid format - pool name '" + v + "' contains invalid characters";
    };
    /** pve-common's {@code pve-storage-id}. */
    static final Function<String, String> STORAGE_ID_CHECK = v -> {
        if (v.length() < 2) {
            return "invalid format - storage ID '" + v + "' cannot be shorter than 2 characters";
        }
        return v.matches("(?i)[a-z][a-z0-9\\-_.]*[a-z0-9]")
                ? null
                : "invalid format - storage ID '" + v + "' contains illegal characters";
    };
    /** pve-common's {@code pve-configid} (snapshot names). */
    static final Function<String, String> CONFIG_ID_CHECK =
            v -> v.matches("(?i)[a-z][a-z0-9_-]+") ? null : "invalid format - invalid configuration ID '" + v + "'";
    /** {@code pve-configid-list}: configuration IDs as pve-common's {@code split_list} splits them. */
    static final Function<String, String> CONFIG_ID_LIST_CHECK = v -> {
        for (String id : splitList(v)) {
            String problem = CONFIG_ID_CHECK.apply(id);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    };
    /** pve-access-control's {@code userid} pattern, with an optional token name. */
    static final Function<String, String> USER_ID_CHECK =
            v -> v.matches("[^\\s:/]+@[A-Za-z][A-Za-z0-9.\\-_]+(!([A-Za-z][A-Za-z0-9.\\-_]+))?")
                    ? null
                    : "value does not match the regex pattern";
    /**
     * pve-common's {@code storage-pair-list}: a storage ID, {@code 1}, or {@code SOURCE:TARGET}
     * pairs of them.
     */
    static final Function<String, String> STORAGE_PAIR_LIST_CHECK = v -> {
        for (String pair : splitList(v)) {
            for (String id : pair.split(":", -1)) {
                if (!id.equals("1") && STORAGE_ID_CHECK.apply(id) != null) {
                    return "invalid format - " + STORAGE_ID_CHECK.apply(id).substring("invalid format - ".length());
                }
            }
        }
        return null;
    };

    /** pve-common's {@code split_list}: items between commas, semicolons and white space. */
    static List<String> splitList(String v) {
        List<String> out = new java.util.ArrayList<>();
        for (String s : v.replace(',', ' ').replace(';', ' ').strip().split("\\s+", -1)) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    private final LinkedHashMap<String, ParamSpec> specs = new LinkedHashMap<>();
    /** {@code requires}: a parameter that is only valid together with another. */
    private final LinkedHashMap<String, String> requires = new LinkedHashMap<>();
    /** An array parameter's check of each item: (path such as {@code map[0]}, value) to an error, or null. */
    private final LinkedHashMap<String, BiFunction<String, String, String>> itemChecks = new LinkedHashMap<>();
    /** An array parameter's item format, when its items are property strings. */
    private final LinkedHashMap<String, PropertyString> itemFormats = new LinkedHashMap<>();

    static ParamSchema of() {
        return new ParamSchema();
    }

    ParamSchema bool(String name) {
        return add(new ParamSpec(name, ParamType.BOOLEAN, false, 0, 0, 0, null, null, false));
    }

    ParamSchema integer(String name, boolean required, long min, long max) {
        return add(new ParamSpec(name, ParamType.INTEGER, required, min, max, 0, null, null, false));
    }

    ParamSchema vmid(String name, boolean required) {
        return integer(name, required, 100, 999_999_999);
    }

    ParamSchema string(String name, boolean required) {
        return string(name, required, 0, null);
    }

    ParamSchema string(String name, boolean required, int maxLength, Function<String, String> check) {
        return add(new ParamSpec(name, ParamType.STRING, required, 0, 0, maxLength, null, check, false));
    }

    ParamSchema oneOf(String name, String... allowed) {
        return add(new ParamSpec(name, ParamType.STRING, false, 0, 0, 0, List.of(allowed), null, false));
    }

    /** Marks an already declared parameter as required. */
    ParamSchema required(String name) {
        ParamSpec s = specs.get(name);
        specs.put(
                name,
                new ParamSpec(
                        s.name(),
                        s.type(),
                        true,
                        s.min(),
                        s.max(),
                        s.maxLength(),
                        s.allowed(),
                        s.check(),
                        s.rootOnly()));
        return this;
    }

    /** {@code name} given without {@code other} is an error of {@code other}'s. */
    ParamSchema requires(String name, String other) {
        requires.put(name, other);
        return this;
    }

    ParamSchema array(String name, boolean required) {
        return add(new ParamSpec(name, ParamType.ARRAY, required, 0, 0, 0, null, null, false));
    }

    /**
     * An array whose items are each checked, as pve-common checks {@code items}: a bad item's error
     * is named {@code name[index]}.
     */
    ParamSchema array(String name, boolean required, BiFunction<String, String, String> itemCheck) {
        itemChecks.put(name, itemCheck);
        return array(name, required);
    }

    /** As {@link #array(String, boolean, BiFunction)}, each item a property string of {@code itemFormat}. */
    ParamSchema array(
            String name, boolean required, PropertyString itemFormat, BiFunction<String, String, String> itemCheck) {
        itemFormats.put(name, itemFormat);
        return array(name, required, itemCheck);
    }

    ParamSchema node(String name) {
        return string(name, true, 0, NODE_CHECK);
    }

    /** Parameters only root@pam may pass; tokens get a 400. */
    ParamSchema rootOnly(String... names) {
        for (String n : names) {
            add(new ParamSpec(n, ParamType.STRING, false, 0, 0, 0, null, null, true));
        }
        return this;
    }

    /** The declared parameters, in declaration order. */
    Collection<ParamSpec> specs() {
        return Collections.unmodifiableCollection(specs.values());
    }

    /**
     * The property-string format of a parameter's value (of each item, for an array), or null when
     * its value is not checked as one.
     */
    PropertyString format(String name) {
        ParamSpec s = specs.get(name);
        if (s == null) {
            return null;
        }
        if (s.type() == ParamType.ARRAY) {
            return itemFormats.get(name);
        }
        return s.check() instanceof PropertyString.Checker c ? c.format() : null;
    }

    private ParamSchema add(ParamSpec s) {
        specs.put(s.name(), s);
        return this;
    }

    /** Checks every parameter and reports all problems at once, as Proxmox does. */
    ValidParams validate(Params raw) {
        Map<String, String> errors = new TreeMap<>();
        Map<String, List<String>> values = raw.asMap();
        for (String name : values.keySet()) {
            if (!specs.containsKey(name)) {
                errors.put(
                        name, "property is not defined in schema and the schema does not allow additional properties");
            }
        }
        for (ParamSpec s : specs.values()) {
            List<String> v = values.get(s.name());
            if (v == null || v.isEmpty()) {
                if (s.required()) {
                    errors.put(s.name(), "property is missing and it is not optional");
                }
                continue;
            }
            if (s.rootOnly()) {
                errors.put(s.name(), "Only root may use this option.");
                continue;
            }
            if (s.type() == ParamType.ARRAY) {
                BiFunction<String, String, String> itemCheck = itemChecks.get(s.name());
                for (int i = 0; itemCheck != null && i < v.size(); i++) {
                    String path = s.name() + "[" + i + "]";
                    String problem = itemCheck.apply(path, v.get(i));
                    if (problem != null) {
                        errors.put(path, problem);
                    }
                }
                continue;
            }
            String problem = check(s, v.get(v.size() - 1));
            if (problem != null) {
                errors.put(s.name(), problem);
            }
        }
        requires.forEach((name, other) -> {
            if (values.containsKey(name) && !values.containsKey(other)) {
                errors.put(other, "missing property required by '" + name + "'");
            }
        });
        if (!errors.isEmpty()) {
            throw Errors.params(errors);
        }
        return new ValidParams(values);
    }

    private static String check(ParamSpec s, String value) {
        switch (s.type()) {
            case BOOLEAN:
                return value.equals("0") || value.equals("1")
                        ? null
                        : "type check ('boolean') failed - got '" + value + "'";
            case INTEGER:
                long n;
                try {
                    n = Long.parseLong(value.trim());
                } catch (NumberFormatException e) {
                    return "type check ('integer') failed - got '" + value + "'";
                }
                if (n < s.min()) {
                    return "value must have a minimum value of " + s.min();
                }
                if (n > s.max()) {
                    return "value must have a maximum value of " + s.max();
                }
                return null;
            default:
                if (s.maxLength() > 0 && value.length() > s.maxLength()) {
                    return "value may only be " + s.maxLength() + " characters long";
                }
                if (s.allowed() != null && !s.allowed().contains(value)) {
                    return "value '" + value + "' does not have a value in the enumeration '"
                            + String.join(", ", s.allowed()) + "'";
                }
                return s.check() == null ? null : s.check().apply(value);
        }
    }
}
