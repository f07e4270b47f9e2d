package dev.bigfleet.proxmox.api;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The instance types this provider can clone, keyed and sorted by name. */
public final class InstanceTypeCatalog {
    private final TreeMap<String, InstanceType> types;

    public InstanceTypeCatalog(Collection<InstanceType> types) {
        if (types.isEmpty()) {
            throw new IllegalArgumentException("the instance-type catalog is empty");
        }
        TreeMap<String, InstanceType> byName = new TreeMap<>();
        for (InstanceType type : types) {
            if (byName.put(type.name(), type) != null) {
                throw new IllegalArgumentException("instance type \"" + type.name() + "\" is listed twice");
            }
        }
        this.types = byName;
    }

    /** The built-in {@code pve.*} sizes, all cloned from one template. */
    public static InstanceTypeCatalog builtIn(long templateVmid) {
        return new InstanceTypeCatalog(List.of(
                new InstanceType("pve.small", 2, 4096, templateVmid),
                new InstanceType("pve.medium", 4, 8192, templateVmid),
                new InstanceType("pve.large", 8, 16384, templateVmid),
                new InstanceType("pve.xlarge", 16, 32768, templateVmid)));
    }

    public Optional<InstanceType> find(String name) {
        return Optional.ofNullable(types.get(name));
    }

    public boolean contains(String name) {
        return types.containsKey(name);
    }

    /** Type names in lexicographic order. */
    public List<String> names() {
        return List.copyOf(types.keySet());
    }

    public Map<String, InstanceType> asMap() {
        return Collections.unmodifiableMap(types);
    }
}
