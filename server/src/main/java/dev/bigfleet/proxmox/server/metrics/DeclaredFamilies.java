package dev.bigfleet.proxmox.server.metrics;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every {@link MetricFamily} the provider declares, whether or not a given process exports it
 * (some need {@code --nodes}, {@code --state} or a backend that reports its API's health): the
 * constants of {@link Families}, {@link JvmMetrics} and {@link ServingMetrics}, by name. The
 * reference page of metrics is generated from this list.
 */
public final class DeclaredFamilies {
    private static final List<Class<?>> HOLDERS = List.of(Families.class, JvmMetrics.class, ServingMetrics.class);

    private DeclaredFamilies() {}

    public static List<MetricFamily> all() {
        List<MetricFamily> families = new ArrayList<>();
        for (Class<?> holder : HOLDERS) {
            for (Field field : holder.getDeclaredFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == MetricFamily.class) {
                    families.add(valueOf(field));
                }
            }
        }
        families.sort(Comparator.comparing(MetricFamily::name));
        return List.copyOf(families);
    }

    private static MetricFamily valueOf(Field field) {
        try {
            return (MetricFamily) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read metric family " + field, e);
        }
    }
}
