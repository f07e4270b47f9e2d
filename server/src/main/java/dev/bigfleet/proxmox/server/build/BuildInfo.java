package dev.bigfleet.proxmox.server.build;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * What was built: the project version and the git commit, from the manifest of the provider's jar
 * ({@code Implementation-Version} and {@code Git-Commit}, written by the build). Run from a classes
 * directory (tests), or from a checkout built without git metadata, the missing parts read {@code
 * dev} and {@code unknown}.
 */
public record BuildInfo(String version, String commit) {
    public static final String UNKNOWN_COMMIT = "unknown";
    private static final Attributes.Name GIT_COMMIT = new Attributes.Name("Git-Commit");

    private static final BuildInfo CURRENT = read(BuildInfo.class);

    /** The provider's own. */
    public static BuildInfo current() {
        return CURRENT;
    }

    /** {@code 0.1.0 (commit 0123456789ab)}. */
    public String describe() {
        return version + " (commit " + commit + ")";
    }

    static BuildInfo read(Class<?> anchor) {
        Optional<Attributes> main = manifest(anchor).map(Manifest::getMainAttributes);
        String version = main.map(a -> a.getValue(Attributes.Name.IMPLEMENTATION_VERSION))
                .filter(v -> !v.isBlank())
                .orElse("dev");
        // a checkout without git metadata leaves the build's placeholder unresolved
        String commit = main.map(a -> a.getValue(GIT_COMMIT))
                .filter(c -> !c.isBlank() && !c.startsWith("${"))
                .orElse(UNKNOWN_COMMIT);
        return new BuildInfo(version, commit);
    }

    /** The manifest of the jar the class was loaded from; none for a classes directory. */
    private static Optional<Manifest> manifest(Class<?> anchor) {
        CodeSource source = anchor.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return Optional.empty();
        }
        try {
            Path path = Path.of(source.getLocation().toURI());
            if (!Files.isRegularFile(path)) {
                return Optional.empty();
            }
            try (JarFile jar = new JarFile(path.toFile())) {
                return Optional.ofNullable(jar.getManifest());
            }
        } catch (IOException | URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
