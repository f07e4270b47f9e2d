package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.file.Path;
import java.util.Iterator;
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
        ObjectNode object = JsonFiles.read(FLAG, path, JsonFiles.mapper().constructType(ObjectNode.class));
        Map<String, String> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (!v.isTextual() && !v.isNumber() && !v.isBoolean()) {
                throw new ConfigException(FLAG + " " + path + ": \"" + e.getKey()
                        + "\" must be a string, a number or a boolean");
            }
            values.put(e.getKey(), v.asText());
        }
        return values;
    }
}
