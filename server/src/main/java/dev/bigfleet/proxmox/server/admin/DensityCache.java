package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.api.Density;
import dev.bigfleet.proxmox.api.Machine;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Density per (allocatable, resources) pair. Machines of one offering share both maps, so a table
 * of 100,000 machines parses a handful of quantity pairs instead of 100,000.
 */
final class DensityCache {
    private record Key(Map<String, String> allocatable, Map<String, String> resources) {}

    private static final int MAX_ENTRIES = 10_000;
    private final Map<Key, OptionalLong> cache = new ConcurrentHashMap<>();

    OptionalLong of(Machine m) {
        Key key = new Key(m.allocatable(), m.resources());
        OptionalLong d = cache.get(key);
        if (d == null) {
            d = Density.of(m);
            if (cache.size() < MAX_ENTRIES) {
                cache.put(key, d);
            }
        }
        return d;
    }
}
