package dev.bigfleet.proxmox.server.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bigfleet.proxmox.server.plugin.BackendRegistry;
import dev.bigfleet.proxmox.server.plugin.LoadedBackend;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The schemas published under {@code docs/reference/schemas/} for the built-in backends, and the
 * page {@code docs/reference/configuration-files.md} made from them, with where they live in the
 * repository.
 */
final class PublishedSchemas {
    /** Rewrites the committed schemas and page from the code (the test compares them otherwise). */
    static final String REGENERATE_COMMAND = "mvn -B -o -q -pl server -am test -Dtest=PublishedSchemasTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -Dreference.update=true";

    static final Path SCHEMAS = Path.of("docs", "reference", "schemas");
    static final Path PAGE = Path.of("docs", "reference", "configuration-files.md");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DefaultIndenter INDENT = new DefaultIndenter("  ", "\n");

    private PublishedSchemas() {}

    /** The built-in backends, by name. */
    static List<LoadedBackend> builtInBackends() throws ConfigException {
        return new ArrayList<>(BackendRegistry.discover(Optional.empty()).all());
    }

    /** File name under {@link #SCHEMAS} to schema: offerings, then each backend's instance types and options. */
    static Map<String, ObjectNode> all() throws ConfigException {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        out.put(ConfigFileSchemas.offeringsFileName(), ConfigFileSchemas.offerings());
        for (LoadedBackend b : builtInBackends()) {
            out.put(
                    ConfigFileSchemas.instanceTypesFileName(b.name()),
                    ConfigFileSchemas.instanceTypes(
                            b.name(), b.instanceTypeSettings(), b.instanceTypeSettingSchemas()));
        }
        for (LoadedBackend b : builtInBackends()) {
            out.put(
                    ConfigFileSchemas.backendConfigFileName(b.name()),
                    ConfigFileSchemas.backendConfig(b.name(), b.options()));
        }
        return out;
    }

    /** A schema as committed: two-space indents, one key per line, a final newline. */
    static String text(ObjectNode schema) {
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter()
                .withSeparators(
                        Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER));
        printer.indentObjectsWith(INDENT);
        printer.indentArraysWith(INDENT);
        try {
            return JSON.writer(printer).writeValueAsString(schema) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The repository's root: the nearest directory at or above the working directory whose {@code
     * pom.xml} lists the server module.
     */
    static Path repositoryRoot() throws IOException {
        for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
            Path pom = at.resolve("pom.xml");
            if (Files.isRegularFile(pom)
                    && Files.readString(pom, StandardCharsets.UTF_8).contains("<module>server</module>")) {
                return at;
            }
        }
        throw new IOException("no pom.xml listing the server module at or above "
                + Path.of("").toAbsolutePath());
    }
}
