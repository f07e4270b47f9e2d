package dev.bigfleet.proxmox.engine.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A store's {@code schema.sql}, kept beside the class that runs it: statements separated by a line
 * holding only {@code ;}, comment lines starting with {@code --}.
 */
public final class SchemaScript {
    private SchemaScript() {}

    /** The statements of the resource {@code name} next to {@code owner}, without comment lines. */
    public static List<String> statements(Class<?> owner, String name) {
        String sql;
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar of " + owner.getName());
            }
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String withoutComments =
                String.join("\n", sql.lines().filter(l -> !l.startsWith("--")).toList());
        return Arrays.stream(withoutComments.split("\n;\n?"))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }
}
