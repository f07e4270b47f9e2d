package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.server.startup.ConfigException;
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
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true)
            .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
            .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);

    private JsonFiles() {}

    /**
     * Reads the file as a JSON tree: a syntax error is named with its line and column only, never
     * the text around it (it may hold a secret).
     */
    static JsonNode readTree(String flag, Path path) throws ConfigException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new ConfigException(flag + " " + path + ": no such file");
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
        try {
            JsonNode tree = MAPPER.readTree(bytes);
            if (tree == null || tree.isMissingNode()) {
                throw new ConfigException(flag + " " + path + ": the file holds no JSON value");
            }
            if (tree.isNull()) {
                throw new ConfigException(flag + " " + path + ": the file holds JSON null");
            }
            return tree;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null
                    ? ""
                    : " at line " + e.getLocation().getLineNr() + ", column "
                            + e.getLocation().getColumnNr();
            throw new ConfigException(flag + " " + path + ": invalid JSON" + where + ": malformed JSON");
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * Reads the file, checks it against {@code schema} ({@link SchemaCheck}) and only then binds it to
     * {@code type}.
     */
    static <T> T read(String flag, Path path, ObjectNode schema, TypeReference<T> type, String entryNoun)
            throws ConfigException {
        JsonNode tree = readTree(flag, path);
        SchemaCheck.check(flag, path, tree, schema);
        return bind(flag, path, tree, type, entryNoun);
    }

    /**
     * Binds a checked tree to {@code type}. An unknown key is named with its entry ({@code entryNoun
     * #N} for an array element) and the nearest known key.
     */
    static <T> T bind(String flag, Path path, JsonNode tree, TypeReference<T> type, String entryNoun)
            throws ConfigException {
        try {
            T value = MAPPER.readerFor(MAPPER.getTypeFactory().constructType(type))
                    .readValue(tree);
            if (value == null) {
                throw new ConfigException(flag + " " + path + ": the file holds JSON null");
            }
            return value;
        } catch (UnrecognizedPropertyException e) {
            List<String> known = e.getKnownPropertyIds().stream()
                    .map(Object::toString)
                    .sorted()
                    .toList();
            String entry = entryOf(e, entryNoun);
            throw new ConfigException(flag + " " + path + ": " + (entry.isEmpty() ? "" : entry + ": ")
                    + "unknown key \"" + e.getPropertyName() + "\"" + NearestName.hint(e.getPropertyName(), known));
        } catch (JsonProcessingException e) {
            throw new ConfigException(flag + " " + path + ": " + problem(e));
        } catch (IOException e) {
            throw new ConfigException(flag + " " + path + ": cannot read: " + e.getMessage());
        }
    }

    /** The entry an unknown key sits in: {@code offering #2}, or the key of an object entry. */
    private static String entryOf(UnrecognizedPropertyException e, String entryNoun) {
        List<com.fasterxml.jackson.databind.JsonMappingException.Reference> path = e.getPath();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < path.size() - 1; i++) {
            var r = path.get(i);
            out.append(out.length() == 0 ? "" : " ")
                    .append(
                            r.getFieldName() != null
                                    ? "\"" + r.getFieldName() + "\""
                                    : entryNoun + " #" + (r.getIndex() + 1));
        }
        return out.toString();
    }

    /** Writes JSON values back as text (a backend's settings travel as JSON text). */
    static ObjectMapper writer() {
        return MAPPER;
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
