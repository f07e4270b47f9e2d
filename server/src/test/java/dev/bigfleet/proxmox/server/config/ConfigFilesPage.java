package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code docs/reference/configuration-files.md}: the keys of each JSON file, per backend where they
 * differ, rendered from the schemas the provider checks the files against.
 */
final class ConfigFilesPage {
    private final Map<String, ObjectNode> schemas;
    private final List<LoadedBackend> backends;

    ConfigFilesPage(Map<String, ObjectNode> schemas, List<LoadedBackend> backends) {
        this.schemas = schemas;
        this.backends = backends;
    }

    String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Configuration files\n\n");
        out.append("*Generated from the code: do not edit by hand. To regenerate this page and the schemas, run* `")
                .append(PublishedSchemas.REGENERATE_COMMAND)
                .append("`\n\n");
        out.append("The provider reads three JSON files: `--offerings`, `--instance-types` and `--backend-config`."
                + " At startup it checks each one against its JSON Schema (draft 2020-12) before its own"
                + " checks; the first violation stops startup with one line naming the flag, the file, the JSON"
                + " path of the offending key and the problem, and never quoting a value:\n\n");
        out.append("```text\nerror: --offerings /etc/bigfleet/offerings.json: $[0].count: must be a whole number,"
                + " not a string\n```\n\n");
        out.append("The keys of `--instance-types` entries and of `--backend-config` depend on the backend: each"
                + " backend declares its own, and the provider builds the schema of the selected one. The"
                + " schemas of the built-in backends are published beside this page:\n\n");
        out.append("| file | backend | schema |\n|---|---|---|\n");
        for (String name : schemas.keySet()) {
            out.append("| ")
                    .append("`")
                    .append(flagOf(name))
                    .append("`")
                    .append(" | ")
                    .append(backendOf(name).map(b -> "`" + b + "`").orElse("every backend"))
                    .append(" | [")
                    .append(name)
                    .append("](schemas/")
                    .append(name)
                    .append(") |\n");
        }
        out.append("\n");
        editors(out);

        out.append("## Offerings (`--offerings`)\n\n");
        ObjectNode offerings = schemas.get(ConfigFileSchemas.offeringsFileName());
        out.append(text(offerings.path("description").asText())).append("\n\n");
        table(out, offerings);

        out.append("## Instance types (`--instance-types`)\n\n");
        ObjectNode anyTypes = schemas.get(
                ConfigFileSchemas.instanceTypesFileName(backends.get(0).name()));
        out.append(text(anyTypes.path("description").asText())).append(" The keys every backend takes:\n\n");
        ObjectNode common = anyTypes.deepCopy();
        ObjectNode commonEntry =
                (ObjectNode) common.path("additionalProperties").path("properties");
        commonEntry.retain(ConfigFileSchemas.BASE_TYPE_KEYS);
        table(out, common);
        for (LoadedBackend b : backends) {
            out.append("### Backend `").append(b.name()).append("`\n\n");
            ObjectNode own = schemas.get(ConfigFileSchemas.instanceTypesFileName(b.name()))
                    .deepCopy();
            ObjectNode ownKeys = (ObjectNode) own.path("additionalProperties").path("properties");
            ownKeys.remove(ConfigFileSchemas.BASE_TYPE_KEYS);
            own.remove("properties");
            out.append("Schema: [")
                    .append(ConfigFileSchemas.instanceTypesFileName(b.name()))
                    .append("](schemas/")
                    .append(ConfigFileSchemas.instanceTypesFileName(b.name()))
                    .append("). ");
            if (ownKeys.isEmpty()) {
                out.append("The ").append(b.name()).append(" backend adds no keys of its own.\n\n");
            } else {
                out.append("The keys the ").append(b.name()).append(" backend adds:\n\n");
                table(out, own);
            }
        }

        out.append("## Backend options (`--backend-config`)\n\n");
        out.append("A JSON object of the selected backend's option names to values, the keys `--backend-opt`"
                + " takes; `--backend-opt` and flag aliases win over the file. A switch takes `true` or"
                + " `false` (or their text). A secret option's value is never logged or quoted in an error.\n\n");
        for (LoadedBackend b : backends) {
            String file = ConfigFileSchemas.backendConfigFileName(b.name());
            out.append("### Backend `").append(b.name()).append("`\n\n");
            out.append("Schema: [")
                    .append(file)
                    .append("](schemas/")
                    .append(file)
                    .append(").");
            ObjectNode schema = schemas.get(file).deepCopy();
            ((ObjectNode) schema.path("properties")).remove(ConfigFileSchemas.SCHEMA_KEY);
            if (schema.path("properties").isEmpty()) {
                out.append(" The ").append(b.name()).append(" backend takes no options.\n\n");
            } else {
                out.append("\n\n");
                table(out, schema);
            }
        }
        return out.toString();
    }

    private void editors(StringBuilder out) {
        out.append("## Checking a file in an editor\n\n");
        out.append("An object file (`--instance-types`, `--backend-config`) may name its schema in a top-level"
                + " `\"$schema\"` key, which the provider accepts and ignores; editors that know JSON Schema"
                + " (VS Code, IntelliJ) then check the file as it is typed. The value is the schema's path,"
                + " relative to the file, or its address where this documentation is served:\n\n");
        out.append("```json\n{\n  \"$schema\": \"../docs/reference/schemas/")
                .append(ConfigFileSchemas.instanceTypesFileName("proxmox"))
                .append(
                        "\",\n  \"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"template_vmid\": 9000}\n}\n```\n\n");
        out.append("An `--offerings` file is a JSON array, which has no place for a `\"$schema\"` key. Map file"
                + " names to schemas in the editor's settings instead; in VS Code, `json.schemas` in"
                + " `.vscode/settings.json` maps each `fileMatch` pattern (matched against the file's path) to a"
                + " schema, a path relative to the workspace or an address:\n\n");
        out.append("```json\n{\n  \"json.schemas\": [\n");
        out.append("    {\"fileMatch\": [\"*offerings*.json\"], \"url\": \"./docs/reference/schemas/")
                .append(ConfigFileSchemas.offeringsFileName())
                .append("\"},\n");
        out.append("    {\"fileMatch\": [\"*instance-types*.json\"], \"url\": \"./docs/reference/schemas/")
                .append(ConfigFileSchemas.instanceTypesFileName("proxmox"))
                .append("\"},\n");
        out.append("    {\"fileMatch\": [\"*backend-config*.json\"], \"url\": \"./docs/reference/schemas/")
                .append(ConfigFileSchemas.backendConfigFileName("proxmox"))
                .append("\"}\n  ]\n}\n```\n\n");
        out.append("Pick the schema of the backend the provider runs: `--instance-types` and `--backend-config`"
                        + " take different keys per backend. Each schema's `$id` is its address under `")
                .append(ConfigFileSchemas.ID_BASE)
                .append("`.\n\n");
    }

    /** One row per key: its JSON path, type, whether it is required, default and description. */
    private static void table(StringBuilder out, ObjectNode schema) {
        out.append("| JSON path | type | required | default | description |\n|---|---|---|---|---|\n");
        rows(out, schema, "$", false);
        out.append("\n");
    }

    private static void rows(StringBuilder out, JsonNode schema, String path, boolean withRow) {
        if (withRow) {
            out.append("| `")
                    .append(path.replace("|", "\\|"))
                    .append("` | ")
                    .append(cell(type(schema)))
                    .append(" | ")
                    .append(schema.path("required?").asBoolean() ? "yes" : "")
                    .append(" | ")
                    .append(
                            schema.has("default")
                                    ? "`" + schema.get("default").asText().replace("|", "\\|") + "`"
                                    : "")
                    .append(" | ")
                    .append(cell(schema.path("description").asText()))
                    .append(" |\n");
        }
        Set<String> required = new LinkedHashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            ObjectNode child = ((ObjectNode) p.getValue()).deepCopy();
            child.put("required?", required.contains(p.getKey()));
            rows(out, child, path + key(p.getKey()), true);
        }
        if (schema.path("items").isObject()) {
            rows(out, schema.get("items"), path + "[*]", true);
        }
        if (schema.path("additionalProperties").isObject()) {
            rows(out, schema.get("additionalProperties"), path + ".*", true);
        }
    }

    private static String key(String name) {
        return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? "." + name : "[\"" + name + "\"]";
    }

    /** {@code integer, 1 to 4094}, {@code string, one of full, linked}, {@code array of string}. */
    private static String type(JsonNode schema) {
        List<String> types = new ArrayList<>();
        JsonNode t = schema.path("type");
        if (t.isArray()) {
            t.forEach(x -> types.add(x.asText()));
        } else if (t.isTextual()) {
            types.add(t.asText());
        }
        StringBuilder out = new StringBuilder(types.isEmpty() ? "any" : String.join(" or ", types));
        List<String> rules = new ArrayList<>();
        if (schema.has("enum")) {
            List<String> values = new ArrayList<>();
            schema.get("enum").forEach(v -> values.add(v.asText()));
            rules.add("one of " + String.join(", ", values));
        }
        if (schema.has("minimum") && schema.has("maximum")) {
            rules.add(schema.get("minimum").asText() + " to "
                    + schema.get("maximum").asText());
        } else if (schema.has("minimum")) {
            rules.add(">= " + schema.get("minimum").asText());
        }
        if (schema.has("minItems") || schema.has("maxItems")) {
            rules.add(schema.path("minItems").asInt(0) + " to "
                    + (schema.has("maxItems") ? schema.get("maxItems").asText() : "any") + " items");
        }
        if (schema.has("minProperties")) {
            rules.add("at least " + schema.get("minProperties").asText() + " key(s)");
        }
        if (schema.has("pattern")) {
            rules.add("matching `" + schema.get("pattern").asText() + "`");
        }
        if (schema.path("writeOnly").asBoolean()) {
            rules.add("secret");
        }
        if (!rules.isEmpty()) {
            out.append(", ").append(String.join("; ", rules));
        }
        return out.toString();
    }

    private static String flagOf(String fileName) {
        if (fileName.startsWith("offerings")) {
            return "--offerings";
        }
        return fileName.startsWith("instance-types") ? "--instance-types" : "--backend-config";
    }

    /** {@code instance-types.proxmox.schema.json} is the proxmox backend's; offerings' is everyone's. */
    private static java.util.Optional<String> backendOf(String fileName) {
        String stem = fileName.substring(0, fileName.length() - ".schema.json".length());
        int dot = stem.indexOf('.');
        return dot < 0 ? java.util.Optional.empty() : java.util.Optional.of(stem.substring(dot + 1));
    }

    /** Table cell text: {@code |} escaped, line breaks as spaces. */
    private static String cell(String text) {
        return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ").replace("<", "&lt;");
    }

    private static String text(String text) {
        return text.replace("<", "&lt;");
    }
}
