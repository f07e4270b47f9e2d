package dev.bigfleet.proxmox.server.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The plugin directory of {@code examples/backend-example}, as its own build lays it out: one
 * subdirectory holding the plugin jar and the libraries it brings. The reactor builds the example
 * before the server; it is never on the server's class path.
 */
final class ExamplePlugin {
    static final String NAME = "example";
    static final String FACTORY = "com.example.bigfleet.backend.ExampleBackendFactory";
    /** The jackson-databind the example bundles; the server carries another one. */
    static final String JACKSON = "2.23.0";

    private ExamplePlugin() {}

    /** {@code ../examples/backend-example/target/plugin}, checked to hold the built plugin. */
    static Path directory() throws IOException {
        Path dir = Path.of("..", "examples", "backend-example", "target", "plugin")
                .toAbsolutePath()
                .normalize();
        Path plugin = dir.resolve("backend-example");
        assertThat(plugin)
                .as("the example plugin, built by the reactor before the server"
                        + " (mvn -pl examples/backend-example,provider-tests -am verify)")
                .isDirectory();
        try (Stream<Path> jars = Files.list(plugin)) {
            assertThat(jars.map(p -> p.getFileName().toString()))
                    .as("the example plugin's jars")
                    .anyMatch(n -> n.startsWith("backend-example-") && n.endsWith(".jar"))
                    .contains("jackson-databind-" + JACKSON + ".jar")
                    .noneMatch(n -> n.startsWith("spi-") || n.startsWith("api-") || n.startsWith("slf4j-"));
        }
        return dir;
    }
}
