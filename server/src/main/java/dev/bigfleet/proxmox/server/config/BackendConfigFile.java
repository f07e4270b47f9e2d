package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.spi.BackendOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code --backend-config} file: one JSON object of backend option names to values (strings,
 * numbers or booleans), the same keys {@code --backend-opt} takes; a top-level {@code "$schema"} key,
 * for editors, is ignored. Once the backend is selected the file is checked against its {@link
 * ConfigFileSchemas#backendConfig schema}. Errors name the file and the key, never a value.
 */
public final class BackendConfigFile {
    private static final String FLAG = "--backend-config";

    private final Path path;
    private final JsonNode tree;
    private final Map<String, String> values;

    private BackendConfigFile(Path path, JsonNode tree, Map<String, String> values) {
        this.path = path;
        this.tree = tree;
        this.values = values;
    }

    /** Reads the file: an object whose values are strings, numbers or booleans. */
    public static BackendConfigFile read(Path path) throws ConfigException {
        JsonNode tree = JsonFiles.readTree(FLAG, path);
        if (!tree.isObject()) {
            throw new ConfigException(FLAG + " " + path + ": $: must be an object, not " + kind(tree));
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : ((ObjectNode) tree).properties()) {
            if (e.getKey().equals(ConfigFileSchemas.SCHEMA_KEY)) {
                continue;
            }
            JsonNode v = e.getValue();
            if (!v.isTextual() && !v.isNumber() && !v.isBoolean()) {
                throw new ConfigException(FLAG + " " + path + ": " + SchemaCheck.topLevel(e.getKey())
                        + ": must be a string, a number or a boolean, not " + kind(v));
            }
            values.put(e.getKey(), v.asText());
        }
        return new BackendConfigFile(path, tree, values);
    }

    /** Option name to value, as text, in the file's order. */
    public Map<String, String> values() {
        return values;
    }

    /**
     * Checks the file against the selected backend's schema; a key it does not declare is named with
     * the nearest one it does, and the list of its options.
     */
    public void check(String backend, List<BackendOption> options) throws ConfigException {
        SchemaCheck.check(
                FLAG,
                path,
                tree,
                ConfigFileSchemas.backendConfig(backend, options),
                (key, known) -> "backend " + backend + " has no option \"" + key + "\"" + NearestName.hint(key, known)
                        + (known.isEmpty() ? "; it takes none" : "; its options: " + String.join(", ", known)));
    }

    private static String kind(JsonNode value) {
        return switch (value.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            case STRING -> "a string";
            case BOOLEAN -> "a boolean";
            case NUMBER -> "a number";
            default -> "another type";
        };
    }
}
