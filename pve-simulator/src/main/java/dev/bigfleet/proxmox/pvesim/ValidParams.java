package dev.bigfleet.proxmox.pvesim;

import java.util.List;
import java.util.Map;

/** Parameters that passed their schema, with typed accessors. The last value of a key counts. */
final class ValidParams {
    private final Map<String, List<String>> values;

    ValidParams(Map<String, List<String>> values) {
        this.values = values;
    }

    boolean has(String name) {
        List<String> v = values.get(name);
        return v != null && !v.isEmpty();
    }

    String str(String name) {
        List<String> v = values.get(name);
        return v == null || v.isEmpty() ? null : v.get(v.size() - 1);
    }

    int integer(String name) {
        return Integer.parseInt(str(name).trim());
    }

    boolean bool(String name, boolean dflt) {
        String v = str(name);
        return v == null ? dflt : v.equals("1");
    }

    List<String> list(String name) {
        List<String> v = values.get(name);
        return v == null ? List.of() : List.copyOf(v);
    }

    /** Every given parameter name, in request order. */
    Iterable<String> names() {
        return values.keySet();
    }
}
