package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Checks a JSON file against its {@link ConfigFileSchemas schema} before anything reads it. The first
 * violation stops startup with one line: the flag, the file, the JSON path of the offending key and
 * what is wrong. The line never quotes a value of the file (a backend option may be a secret): only
 * key names, JSON types and what the schema allows.
 */
public final class SchemaCheck {
    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** How a key the schema does not know is told: {@code unknown key} and the nearest known one. */
    @FunctionalInterface
    public interface UnknownKey {
        UnknownKey DEFAULT = (key, known) -> "unknown key \"" + key + "\"" + NearestName.hint(key, known);

        String problem(String key, List<String> known);
    }

    private SchemaCheck() {}

    /** @throws ConfigException naming the first violation */
    public static void check(String flag, Path path, JsonNode document, ObjectNode schema) throws ConfigException {
        check(flag, path, document, schema, UnknownKey.DEFAULT);
    }

    /** @throws ConfigException naming the first violation */
    public static void check(String flag, Path path, JsonNode document, ObjectNode schema, UnknownKey unknownKey)
            throws ConfigException {
        List<Error> errors = new ArrayList<>(violations(document, schema));
        // a mistyped key explains the required key it lacks: unknown keys are told first
        errors.sort(Comparator.comparingInt(SchemaCheck::rank));
        if (!errors.isEmpty()) {
            Error first = errors.get(0);
            throw new ConfigException(flag + " " + path + ": " + describe(first, schema, unknownKey));
        }
    }

    private static int rank(Error e) {
        String keyword = e.getKeyword() == null ? "" : e.getKeyword();
        return switch (keyword) {
            case "additionalProperties", "unevaluatedProperties" -> 0;
            case "required" -> 1;
            case "type" -> 2;
            default -> 3;
        };
    }

    /** Every violation of {@code schema} by {@code document}, as the validator reports them. */
    public static List<Error> violations(JsonNode document, ObjectNode schema) {
        Schema compiled = REGISTRY.getSchema(schema);
        return compiled.validate(document);
    }

    /** {@code $[0].count: must be a whole number, not a string}: never the value itself. */
    static String describe(Error e, ObjectNode schema, UnknownKey unknownKey) {
        String keyword = e.getKeyword() == null ? "" : e.getKeyword();
        NodePath at = e.getInstanceLocation();
        JsonNode rule = e.getSchemaNode();
        JsonNode value = e.getInstanceNode();
        switch (keyword) {
            case "additionalProperties", "unevaluatedProperties" -> {
                String key = e.getProperty();
                return path(at, key) + ": " + unknownKey.problem(key, knownKeys(e, schema));
            }
            case "required" -> {
                return path(at, e.getProperty()) + ": is required";
            }
            case "type" -> {
                return path(at, null) + ": must be " + typeNames(rule) + ", not " + typeName(value);
            }
            case "enum" -> {
                List<String> allowed = new ArrayList<>();
                rule.forEach(v -> allowed.add(v.toString()));
                return path(at, null) + ": must be one of " + String.join(", ", allowed);
            }
            case "minimum" -> {
                return path(at, null) + ": must be >= " + rule.asText();
            }
            case "maximum" -> {
                return path(at, null) + ": must be <= " + rule.asText();
            }
            case "exclusiveMinimum" -> {
                return path(at, null) + ": must be > " + rule.asText();
            }
            case "minItems" -> {
                return path(at, null) + ": must list at least " + rule.asText() + " item(s)";
            }
            case "maxItems" -> {
                return path(at, null) + ": must list at most " + rule.asText() + " item(s)";
            }
            case "minProperties" -> {
                return path(at, null) + ": must have at least " + rule.asText() + " key(s)";
            }
            case "pattern" -> {
                return path(at, null) + ": does not match " + rule.asText();
            }
            default -> {
                return path(at, null) + ": does not satisfy the schema's " + keyword;
            }
        }
    }

    /**
     * The keys the object's schema names, for "did you mean": the {@code properties} beside the
     * violated {@code additionalProperties} in {@code schema}.
     */
    private static List<String> knownKeys(Error e, ObjectNode schema) {
        List<String> known = new ArrayList<>();
        String location =
                e.getSchemaLocation() == null ? "" : e.getSchemaLocation().toString();
        int hash = location.indexOf('#');
        String pointer = hash < 0 ? "" : location.substring(hash + 1);
        int slash = pointer.lastIndexOf('/');
        if (slash >= 0) {
            JsonNode properties = schema.at(pointer.substring(0, slash) + "/properties");
            properties.fieldNames().forEachRemaining(k -> {
                if (!k.equals(ConfigFileSchemas.SCHEMA_KEY)) {
                    known.add(k);
                }
            });
        }
        return known;
    }

    /** {@code $[0].labels}, {@code $["pve.small"].vcpu}: JSONPath, bracketed where a key is not a plain name. */
    static String path(NodePath at, String child) {
        StringBuilder out = new StringBuilder("$");
        for (int i = 0; i < at.getNameCount(); i++) {
            append(out, at.getElement(i));
        }
        if (child != null) {
            append(out, child);
        }
        return out.toString();
    }

    /** The JSON path of a top-level key: {@code $.pool}, {@code $["token-secret"]}. */
    static String topLevel(String key) {
        StringBuilder out = new StringBuilder("$");
        append(out, key);
        return out.toString();
    }

    private static void append(StringBuilder out, Object element) {
        if (element instanceof Number n) {
            out.append('[').append(n).append(']');
        } else if (IDENTIFIER.matcher(element.toString()).matches()) {
            out.append('.').append(element);
        } else {
            out.append("[\"")
                    .append(element.toString().replace("\\", "\\\\").replace("\"", "\\\""))
                    .append("\"]");
        }
    }

    private static String typeNames(JsonNode rule) {
        List<String> names = new ArrayList<>();
        if (rule.isArray()) {
            rule.forEach(t -> names.add(schemaTypeName(t.asText())));
        } else {
            names.add(schemaTypeName(rule.asText()));
        }
        return String.join(" or ", names);
    }

    private static String schemaTypeName(String type) {
        return switch (type) {
            case "integer" -> "a whole number";
            case "number" -> "a number";
            case "string" -> "a string";
            case "boolean" -> "true or false";
            case "object" -> "an object";
            case "array" -> "an array";
            case "null" -> "null";
            default -> type;
        };
    }

    private static String typeName(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "missing";
        }
        return switch (value.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> value.isIntegralNumber() ? "a whole number" : "a number";
            case BOOLEAN -> "a boolean";
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case NULL -> "null";
            default -> "another type";
        };
    }
}
