package dev.bigfleet.proxmox.server.config;

import dev.bigfleet.proxmox.server.startup.ConfigException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Reads a JSON config file, turning every failure into one line naming the flag and the file. */
final class JsonFiles {
    // a wrong type such as "count": "3" is an error, not silently coerced
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .build()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
            .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);

    private JsonFiles() {}

    static <T> T read(String flag, Path path, TypeReference<T> type) throws ConfigException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new ConfigException(flag + " " + path + ": no such file");
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
        try {
            T value = MAPPER.readValue(bytes, type);
            if (value == null) {
                throw new ConfigException(flag + " " + path + ": the file holds JSON null");
            }
            return value;
        } catch (JsonProcessingException e) {
            // the parser's own message quotes the file's text, which may hold a secret: say where, not what
            String where = e.getLocation() == null ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
            throw new ConfigException(flag + " " + path + ": invalid JSON" + where + ": " + problem(e));
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
    }

    private static String problem(JsonProcessingException e) {
        if (e instanceof MismatchedInputException mismatch) {
            String field = mismatch.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "#" + (r.getIndex() + 1))
                    .reduce((a, b) -> a + "." + b)
                    .orElse("the file");
            Class<?> expected = mismatch.getTargetType();
            return field + " has the wrong type" + (expected == null ? "" : " (expected " + typeName(expected) + ")");
        }
        return "malformed JSON";
    }

    private static String typeName(Class<?> type) {
        if (type == Integer.class || type == Long.class || type == int.class || type == long.class) {
            return "a whole number";
        }
        if (type == String.class) {
            return "a string";
        }
        if (Map.class.isAssignableFrom(type) || type.getSimpleName().endsWith("Node")) {
            return "an object";
        }
        if (List.class.isAssignableFrom(type)) {
            return "an array";
        }
        return type.getSimpleName();
    }
}
