package com.example.bigfleet.backend;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.PackageVersion;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code state-file}: every VM, by node, and the next VMID, as JSON written with the plugin's own
 * Jackson. Each write replaces the file atomically (a temporary file moved over it), so a provider
 * killed mid-write finds the previous state, never half a file.
 */
final class StateFile {
    /** What the file holds; {@code writtenBy} names the Jackson that wrote it, for whoever reads it. */
    record Contents(String writtenBy, long nextVmid, Map<String, List<ExampleVm>> nodes) {}

    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private final Path path;
    private final String where;

    /** @param where how the operator named the file, for errors ({@code --backend-opt state-file}) */
    StateFile(Path path, String where) {
        this.path = path;
        this.where = where;
    }

    /** The version of jackson-databind this plugin loaded: its own, whatever the provider carries. */
    static String jacksonVersion() {
        return PackageVersion.VERSION.toString();
    }

    Path path() {
        return path;
    }

    /**
     * The saved state, or empty when the file does not exist yet.
     *
     * @throws IllegalArgumentException with one line naming the option, for a file that cannot be read
     */
    Optional<Contents> read() {
        if (!Files.exists(path)) {
            return Optional.empty();
        }
        try {
            Contents contents = JSON.readValue(path.toFile(), Contents.class);
            if (contents == null || contents.nodes() == null) {
                throw new IllegalArgumentException(where + " " + path + ": not a state file of the example backend"
                        + " (no \"nodes\")");
            }
            return Optional.of(contents);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(where + " " + path + ": not a state file of the example backend ("
                    + oneLine(e.getOriginalMessage()) + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(where + " " + path + ": cannot read: " + oneLine(e.getMessage()));
        }
    }

    /** Replaces the file with {@code nodes}; called with the substrate's lock held, so writes never interleave. */
    void write(long nextVmid, Map<String, List<ExampleVm>> nodes) {
        Contents contents = new Contents("backend-example with jackson-databind " + jacksonVersion(), nextVmid, nodes);
        try {
            Path parent = path.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path temp = Files.createTempFile(parent, path.getFileName().toString(), ".tmp");
            try {
                JSON.writeValue(temp.toFile(), contents);
                Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(where + " " + path + ": cannot write: " + oneLine(e.getMessage()), e);
        }
    }

    private static String oneLine(String text) {
        return String.valueOf(text).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    }
}
