package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.api.MachineState;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Filters, sort order and page of a machine table request, validated. Text search matches a
 * case-insensitive substring of the id, the host ref or the cluster.
 */
public record MachineQuery(
        Set<MachineState> states,
        String zone,
        String instanceType,
        String text,
        MachineSort sort,
        boolean descending,
        int offset,
        int limit) {
    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 1000;

    public MachineQuery {
        states = states.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(states));
        text = text.toLowerCase(Locale.ROOT);
    }

    /**
     * Reads the query parameters; a bad value is an {@link IllegalArgumentException} naming it.
     *
     * @param state comma-separated state names, empty for any
     */
    public static MachineQuery parse(
            String state,
            String zone,
            String instanceType,
            String text,
            String sort,
            String order,
            String offset,
            String limit) {
        EnumSet<MachineState> states = EnumSet.noneOf(MachineState.class);
        for (String s : blank(state).split(",", -1)) {
            if (!s.isBlank()) {
                try {
                    states.add(MachineState.valueOf(s.trim().toUpperCase(Locale.ROOT)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "state: \"" + s + "\" is not one of " + Arrays.toString(MachineState.values()));
                }
            }
        }
        MachineSort by = blank(sort).isEmpty()
                ? MachineSort.ID
                : MachineSort.parse(sort)
                        .orElseThrow(() -> new IllegalArgumentException("sort: \"" + sort + "\" is not a column"));
        String o = blank(order).isEmpty() ? "asc" : order.trim().toLowerCase(Locale.ROOT);
        if (!o.equals("asc") && !o.equals("desc")) {
            throw new IllegalArgumentException("order: must be asc or desc");
        }
        int from = number("offset", offset, 0, Integer.MAX_VALUE, 0);
        int size = number("limit", limit, 1, MAX_LIMIT, DEFAULT_LIMIT);
        return new MachineQuery(
                states,
                blank(zone).trim(),
                blank(instanceType).trim(),
                blank(text).trim(),
                by,
                o.equals("desc"),
                from,
                size);
    }

    boolean matches(Machine m) {
        if (!states.isEmpty() && !states.contains(m.state())) {
            return false;
        }
        if (!zone.isEmpty() && !zone.equals(m.zone())) {
            return false;
        }
        if (!instanceType.isEmpty() && !instanceType.equals(m.instanceType())) {
            return false;
        }
        return text.isEmpty() || contains(m.id()) || contains(m.host().ref()) || contains(m.cluster());
    }

    private boolean contains(String field) {
        return !field.isEmpty() && field.toLowerCase(Locale.ROOT).contains(text);
    }

    private static String blank(String v) {
        return v == null ? "" : v;
    }

    private static int number(String name, String value, int min, int max, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.trim());
            if (n < min || n > max) {
                throw new IllegalArgumentException(name + ": must be between " + min + " and " + max);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": \"" + value + "\" is not a whole number");
        }
    }
}
