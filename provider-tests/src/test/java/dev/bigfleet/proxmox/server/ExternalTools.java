package dev.bigfleet.proxmox.server;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Debian tools some tests drive (promtool, chromium, chromedriver). {@code .ci/run} installs
 * them, so in CI a missing tool fails the test; on a developer machine without them the test is
 * skipped.
 */
public final class ExternalTools {
    private ExternalTools() {}

    public static Path require(String... candidates) {
        Optional<Path> found = find(candidates);
        if (found.isEmpty()) {
            String what = String.join(" or ", candidates);
            if (System.getenv("CI") != null) {
                fail(what + " is not installed; .ci/run should have installed it");
            }
            assumeTrue(false, what + " is not installed here; skipping (CI installs it)");
        }
        return found.get();
    }

    static Optional<Path> find(String... candidates) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String name : candidates) {
            for (String dir : (path + ":/usr/bin:/usr/lib/chromium").split(":", -1)) {
                Path p = Path.of(dir, name);
                if (!dir.isEmpty() && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
