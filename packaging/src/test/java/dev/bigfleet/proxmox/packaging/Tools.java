package dev.bigfleet.proxmox.packaging;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Debian tools the packaging tests drive (umoci, podman, lintian, dpkg, systemd-analyze, promtool,
 * helm's in-process library needs none). {@code .ci/run} installs them, so in CI a missing tool
 * fails the test; on a developer machine without one the test is skipped. Tests that install a
 * package or mount need root as well.
 */
public final class Tools {
    private Tools() {}

    public static Path require(String name) {
        Optional<Path> found = find(name);
        if (found.isEmpty()) {
            missing(name + " is not installed");
        }
        return found.get();
    }

    public static void requireRoot() {
        if (!"root".equals(System.getProperty("user.name"))) {
            missing("this test needs root");
        }
    }

    public static Optional<Path> find(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : (path + ":/usr/sbin:/sbin:/usr/bin:/bin").split(":", -1)) {
            Path p = Path.of(dir, name);
            if (!dir.isEmpty() && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static void missing(String why) {
        if (System.getenv("CI") != null) {
            fail(why + "; .ci/run should have provided it");
        }
        assumeTrue(false, why + " here; skipping (CI provides it)");
    }
}
