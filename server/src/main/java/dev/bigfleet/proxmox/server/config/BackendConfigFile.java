package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --backend-config} file: one JSON object of backend option names to values (strings,
 * numbers or booleans), the same keys {@code --backend-opt} takes. Errors name the file and the key,
 * never a value.
 */
public final class BackendConfigFile {
    private static final String FLAG = "--backend-config";

    private BackendConfigFile() {}

    public static Map<String, String> read(Path path) throws ConfigException {
        ObjectNode object = JsonFiles.read(FLAG, path, new TypeReference<ObjectNode>() {});
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            JsonNode v = e.getValue();
            if (!v.isTextual() && !v.isNumber() && !v.isBoolean()) {
                throw new ConfigException(
                        FLAG + " " + path + ": \"" + e.getKey() + "\" must be a string, a number or a boolean");
            }
            values.put(e.getKey(), v.asText());
        }
        return values;
    }
}
