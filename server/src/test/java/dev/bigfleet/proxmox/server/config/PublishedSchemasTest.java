package dev.bigfleet.proxmox.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schemas under {@code docs/reference/schemas/} and the page {@code
 * docs/reference/configuration-files.md} are what the code generates; with {@code
 * -Dreference.update=true} the test rewrites them instead. The committed schemas check the documentation's
 * example files as an editor would: read from disk by a JSON Schema validator.
 */
class PublishedSchemasTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final boolean UPDATE = Boolean.getBoolean("reference.update");

    static Stream<String> schemaFiles() throws Exception {
        return PublishedSchemas.all().keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaFiles")
    void theCommittedSchemaIsWhatTheCodeGenerates(String name) throws Exception {
        Path file = PublishedSchemas.repositoryRoot()
                .resolve(PublishedSchemas.SCHEMAS)
                .resolve(name);
        String generated = PublishedSchemas.text(PublishedSchemas.all().get(name));
        compare(file, generated);
    }

    @Test
    void theCommittedPageIsWhatTheSchemasRender() throws Exception {
        Path file = PublishedSchemas.repositoryRoot().resolve(PublishedSchemas.PAGE);
        compare(file, page());
    }

    @Test
    void thePageStartsWithItsTitleSaysItIsGeneratedAndLinksEachSchema() throws Exception {
        String page = page();
        assertThat(page).startsWith("# Configuration files\n");
        assertThat(page.lines().skip(2).findFirst())
                .hasValueSatisfying(line ->
                        assertThat(line).contains("Generated from the code").contains("-Dreference.update=true"));
        for (String name : PublishedSchemas.all().keySet()) {
            assertThat(page).contains("](schemas/" + name + ")");
        }
        // every table row has as many cells as its header: no cell holds an unescaped |
        for (String row : page.lines().filter(l -> l.startsWith("| `$")).toList()) {
            assertThat(row.replace("\\|", "").chars().filter(c -> c == '|').count())
                    .as(row)
                    .isEqualTo(6);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaFiles")
    void everyPropertyHasATitleAndADescription(String name) throws Exception {
        ObjectNode schema = PublishedSchemas.all().get(name);
        List<String> missing = new ArrayList<>();
        undescribed(schema, "$", missing);
        assertThat(missing).as(name).isEmpty();
        assertThat(schema.path("$id").asText()).isEqualTo(ConfigFileSchemas.ID_BASE + name);
        assertThat(schema.path("$schema").asText()).isEqualTo(ConfigFileSchemas.DIALECT);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaFiles")
    void eachSchemaIsAValidDraft202012Schema(String name) throws Exception {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        Schema meta = registry.getSchema(com.networknt.schema.SchemaLocation.of(ConfigFileSchemas.DIALECT));
        assertThat(meta.validate(PublishedSchemas.all().get(name))).isEmpty();
    }

    static Stream<String[]> readmeExamples() throws Exception {
        Path docs = PublishedSchemas.repositoryRoot().resolve("docs");
        String configuration = Files.readString(docs.resolve("installing/configuration.md"));
        String storage = Files.readString(docs.resolve("proxmox/storage.md"));
        String gpu = Files.readString(docs.resolve("proxmox/gpu.md"));
        List<String[]> out = new ArrayList<>();
        out.add(new String[] {"offerings.schema.json", block(configuration, "## Offerings (`--offerings`)", 0)});
        out.add(new String[] {
            "instance-types.proxmox.schema.json", block(configuration, "## Instance types (`--instance-types`)", 0)
        });
        out.add(new String[] {
            "instance-types.fake.schema.json", block(configuration, "## Instance types (`--instance-types`)", 0)
        });
        out.add(new String[] {"instance-types.proxmox.schema.json", block(storage, null, 0)});
        out.add(new String[] {"instance-types.proxmox.schema.json", block(storage, null, 1)});
        out.add(new String[] {"instance-types.proxmox.schema.json", block(gpu, null, 0)});
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("readmeExamples")
    void aPublishedSchemaAcceptsTheDocumentationsExamplesAsAnEditorWould(String schemaFile, String example)
            throws Exception {
        assertThat(editorCheck(schemaFile, example)).isEmpty();
    }

    @Test
    void aPublishedSchemaFlagsMistakesAsAnEditorWould() throws Exception {
        assertThat(editorCheck(
                        "offerings.schema.json",
                        "[{\"instance_type\": \"pve.large\", \"zone\": \"pve1\", \"count\": \"8\"}]"))
                .extracting(Error::getKeyword)
                .containsExactly("type");
        assertThat(editorCheck("instance-types.proxmox.schema.json", "{\"pve.small\": {\"vcpu\": 2}}"))
                .extracting(Error::getKeyword)
                .containsExactly("required");
        assertThat(editorCheck(
                        "instance-types.fake.schema.json",
                        "{\"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"clone_mode\": \"linked\"}}"))
                .extracting(Error::getKeyword)
                .containsExactly("additionalProperties");
        assertThat(editorCheck(
                        "instance-types.proxmox.schema.json",
                        "{\"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096, \"clone_mode\": \"thin\"}}"))
                .extracting(Error::getKeyword)
                .containsExactly("enum");
        assertThat(editorCheck("backend-config.proxmox.schema.json", "{\"api-url\": \"https://pve:8006/api2/json\"}"))
                .isEmpty();
        assertThat(editorCheck("backend-config.proxmox.schema.json", "{\"api-ulr\": \"https://pve:8006/api2/json\"}"))
                .extracting(Error::getKeyword)
                .containsExactly("additionalProperties");
    }

    @Test
    void anObjectFileMayNameItsSchema() throws Exception {
        assertThat(editorCheck(
                        "instance-types.proxmox.schema.json",
                        "{\"$schema\": \"schemas/instance-types.proxmox.schema.json\","
                                + " \"pve.small\": {\"vcpu\": 2, \"memory_mib\": 4096}}"))
                .isEmpty();
        assertThat(editorCheck(
                        "backend-config.fake.schema.json",
                        "{\"$schema\": \"schemas/backend-config.fake.schema.json\", \"latency\": \"0s\"}"))
                .isEmpty();
    }

    /** Validates {@code document} with the committed schema file, read from disk. */
    private static List<Error> editorCheck(String schemaFile, String document) throws Exception {
        Path file = PublishedSchemas.repositoryRoot()
                .resolve(PublishedSchemas.SCHEMAS)
                .resolve(schemaFile);
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
        Schema schema = registry.getSchema(Files.readString(file, StandardCharsets.UTF_8));
        return schema.validate(JSON.readTree(document));
    }

    /**
     * The {@code index}th ```json block of a documentation page after {@code heading} (and before the
     * next heading of its level), or anywhere on the page when {@code heading} is null.
     */
    private static String block(String page, String heading, int index) {
        String section = page;
        if (heading != null) {
            int start = page.indexOf("\n" + heading + "\n");
            assertThat(start).as(heading).isNotNegative();
            String level = heading.substring(0, heading.indexOf(' ') + 1);
            int end = page.indexOf("\n" + level, start + heading.length() + 1);
            section = page.substring(start, end < 0 ? page.length() : end);
        }
        Matcher m = Pattern.compile("```json\n(.*?)```", Pattern.DOTALL).matcher(section);
        for (int i = 0; i <= index; i++) {
            assertThat(m.find()).as(heading + " block " + index).isTrue();
        }
        return m.group(1);
    }

    private static void undescribed(JsonNode schema, String path, List<String> missing) {
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            check(p.getValue(), path + "." + p.getKey(), missing);
        }
        if (schema.path("items").isObject()) {
            check(schema.get("items"), path + "[*]", missing);
        }
        if (schema.path("additionalProperties").isObject()) {
            check(schema.get("additionalProperties"), path + ".*", missing);
        }
    }

    private static void check(JsonNode schema, String path, List<String> missing) {
        if (schema.path("title").asText().isBlank()
                || schema.path("description").asText().isBlank()) {
            missing.add(path);
        }
        undescribed(schema, path, missing);
    }

    private static String page() throws Exception {
        return new ConfigFilesPage(PublishedSchemas.all(), PublishedSchemas.builtInBackends()).render();
    }

    private static void compare(Path file, String generated) throws Exception {
        if (UPDATE) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, generated, StandardCharsets.UTF_8);
        }
        String committed = Files.isRegularFile(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        assertThat(committed)
                .as(
                        "%s is not what the code generates; regenerate it with: %s",
                        file, PublishedSchemas.REGENERATE_COMMAND)
                .isEqualTo(generated);
    }
}
