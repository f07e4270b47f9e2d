package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The {@code --offerings} file: a JSON array of
 * {@code {"instance_type", "zone", "capacity_type", "count", "resources", "labels"}}, checked against
 * {@link ConfigFileSchemas#offerings()} before it is read.
 */
public final class OfferingsFile {
    /** One entry as written in the file. */
    record Entry(
            @JsonProperty("instance_type") String instanceType,
            @JsonProperty("zone") String zone,
            @JsonProperty("capacity_type") String capacityType,
            @JsonProperty("count") Integer count,
            @JsonProperty("resources") Map<String, String> resources,
            @JsonProperty("labels") Map<String, String> labels) {}

    private OfferingsFile() {}

    public static List<Offering> load(Path path) throws ConfigException {
        List<Entry> entries = JsonFiles.read(
                "--offerings", path, ConfigFileSchemas.offerings(), new TypeReference<List<Entry>>() {}, "offering");
        if (entries.isEmpty()) {
            throw new ConfigException("--offerings " + path + ": the file lists no offerings");
        }
        List<Offering> offerings = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            String where = "--offerings " + path + ": offering #" + (i + 1);
            if (e == null) {
                throw new ConfigException(where + " is null");
            }
            if (hasNullValue(e.resources()) || hasNullValue(e.labels())) {
                throw new ConfigException(where + ": resources and labels must map names to strings, not null");
            }
            CapacityType capacity;
            try {
                capacity = CapacityType.parseOffered(e.capacityType());
            } catch (IllegalArgumentException bad) {
                throw new ConfigException(where + ": " + bad.getMessage());
            }
            offerings.add(new Offering(
                    e.instanceType() == null ? "" : e.instanceType(),
                    e.zone() == null ? "" : e.zone(),
                    capacity,
                    e.count() == null ? 0 : e.count(),
                    e.resources(),
                    e.labels()));
        }
        return offerings;
    }

    private static boolean hasNullValue(Map<String, String> map) {
        return map != null && map.containsValue(null);
    }
}
