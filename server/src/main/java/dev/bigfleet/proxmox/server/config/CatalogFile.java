package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --instance-types} file: a JSON object of type name →
 * {@code {"vcpu": 2, "memory_mib": 4096, "template_vmid": 9000, ...}}. It replaces the built-in
 * catalog. Keys beyond the three of every backend are the selected backend's ({@link
 * InstanceType#settings()}); any other key is a mistake, named with the nearest known key. The file
 * is checked against {@link ConfigFileSchemas#instanceTypes} (the selected backend's) before it is
 * read; a top-level {@code "$schema"} key, for editors, is ignored.
 */
public final class CatalogFile {
    private static final String FLAG = "--instance-types";
    private static final String VCPU = ConfigFileSchemas.VCPU;
    private static final String MEMORY = ConfigFileSchemas.MEMORY;
    private static final String TEMPLATE = ConfigFileSchemas.TEMPLATE;
    private static final String ALLOCATABLE = ConfigFileSchemas.ALLOCATABLE;

    private CatalogFile() {}

    /**
     * @param backend the selected backend's name
     * @param backendKeys the keys the selected backend reads from an entry
     * @param backendSchemas the JSON Schema text of each such key that has one
     */
    public static InstanceTypeCatalog load(
            Path path,
            long defaultTemplateVmid,
            String backend,
            List<String> backendKeys,
            Map<String, String> backendSchemas)
            throws ConfigException {
        JsonNode tree = JsonFiles.readTree(FLAG, path);
        SchemaCheck.check(FLAG, path, tree, ConfigFileSchemas.instanceTypes(backend, backendKeys, backendSchemas));
        LinkedHashMap<String, JsonNode> entries =
                JsonFiles.bind(FLAG, path, tree, new TypeReference<LinkedHashMap<String, JsonNode>>() {}, "entry");
        entries.remove(ConfigFileSchemas.SCHEMA_KEY);
        if (entries.isEmpty()) {
            throw new ConfigException(FLAG + " " + path + ": the catalog has no instance types");
        }
        List<String> known = new ArrayList<>(ConfigFileSchemas.BASE_TYPE_KEYS);
        known.addAll(backendKeys);
        List<InstanceType> types = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : entries.entrySet()) {
            String name = e.getKey();
            String where = FLAG + " " + path + ": \"" + name + "\"";
            if (e.getValue() == null || !e.getValue().isObject()) {
                throw new ConfigException(where + " must be an object of vcpu, memory_mib and template_vmid");
            }
            if (name.isBlank() || name.contains("/") || name.chars().anyMatch(Character::isWhitespace)) {
                throw new ConfigException(where + ": a type name must be non-empty, without '/' or spaces");
            }
            ObjectNode entry = (ObjectNode) e.getValue();
            Map<String, String> settings = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : entry.properties()) {
                String key = field.getKey();
                if (!known.contains(key)) {
                    throw new ConfigException(where + ": unknown key \"" + key + "\"" + NearestName.hint(key, known));
                }
                if (backendKeys.contains(key)) {
                    settings.put(key, text(field.getValue()));
                }
            }
            long vcpu = whole(entry, VCPU, where);
            if (vcpu <= 0 || vcpu > Integer.MAX_VALUE) {
                throw new ConfigException(where + ": vcpu must be > 0");
            }
            long memory = whole(entry, MEMORY, where);
            if (memory <= 0) {
                throw new ConfigException(where + ": memory_mib must be > 0");
            }
            long template = entry.has(TEMPLATE) ? whole(entry, TEMPLATE, where) : 0;
            if (template < 0) {
                throw new ConfigException(where + ": template_vmid must be > 0");
            }
            Map<String, String> extra = allocatable(entry, where);
            try {
                types.add(new InstanceType(
                        name, (int) vcpu, memory, template == 0 ? defaultTemplateVmid : template, settings, extra));
            } catch (IllegalArgumentException ex) {
                throw new ConfigException(where + ": " + ex.getMessage());
            }
        }
        return new InstanceTypeCatalog(types);
    }

    /**
     * {@code "allocatable": {"nvidia.com/gpu": "1"}}: what the type adds to the kubelet's allocatable, as
     * Kubernetes resource names and quantity strings; missing is none.
     */
    private static Map<String, String> allocatable(ObjectNode entry, String where) throws ConfigException {
        JsonNode v = entry.get(ALLOCATABLE);
        if (v == null || v.isNull()) {
            return Map.of();
        }
        if (!v.isObject()) {
            throw new ConfigException(where + ": allocatable must be an object of resource name to quantity");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> r : v.properties()) {
            if (!r.getKey().matches("([a-z0-9.-]+/)?[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")) {
                throw new ConfigException(
                        where + ": allocatable: \"" + r.getKey() + "\" is not a Kubernetes resource name");
            }
            String quantity = r.getValue().isTextual() || r.getValue().isNumber()
                    ? r.getValue().asText()
                    : "";
            if (!quantity.matches("[0-9]+(\\.[0-9]+)?([numkMGTPE]|[KMGTPE]i)?")) {
                throw new ConfigException(where + ": allocatable \"" + r.getKey() + "\": \"" + quantity
                        + "\" is not a quantity (e.g. \"1\", \"500m\", \"16Gi\")");
            }
            out.put(r.getKey(), quantity);
        }
        return out;
    }

    /** A whole number; missing is 0. */
    private static long whole(ObjectNode entry, String key, String where) throws ConfigException {
        JsonNode v = entry.get(key);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new ConfigException(where + ": " + key + " must be a whole number");
        }
        return v.longValue();
    }

    private static String text(JsonNode value) throws ConfigException {
        try {
            return JsonFiles.writer().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new ConfigException("cannot re-encode a JSON value: " + e.getOriginalMessage(), e);
        }
    }
}
