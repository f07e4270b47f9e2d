package dev.bigfleet.proxmox.docs.reference;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The repository's root, where the committed pages live: {@code maven.multiModuleProjectDirectory}
 * when Maven set it, else the nearest directory at or above the working directory whose {@code
 * pom.xml} lists this module.
 */
final class RepositoryRoot {
    private static final String MODULE = "<module>docs-reference</module>";

    private RepositoryRoot() {}

    static Path find() throws IOException {
        String fromMaven = System.getProperty("maven.multiModuleProjectDirectory");
        if (fromMaven != null && listsThisModule(Path.of(fromMaven))) {
            return Path.of(fromMaven).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Optional<Path> at = Optional.of(dir);
                at.isPresent();
                at = Optional.ofNullable(at.get().getParent())) {
            if (listsThisModule(at.get())) {
                return at.get().normalize();
            }
        }
        throw new IOException("no pom.xml listing " + MODULE + " at or above " + dir);
    }

    private static boolean listsThisModule(Path dir) throws IOException {
        Path pom = dir.resolve("pom.xml");
        return Files.isRegularFile(pom)
                && Files.readString(pom, StandardCharsets.UTF_8).contains(MODULE);
    }
}
