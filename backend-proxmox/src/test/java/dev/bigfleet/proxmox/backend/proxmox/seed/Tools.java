package dev.bigfleet.proxmox.backend.proxmox.seed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Debian tools the seed tests read images with: isoinfo and isovfy (genisoimage), xorriso,
 * blkid (util-linux) and cloud-init, a package of Debian's own Python ({@code /usr/bin/python3},
 * not one a version manager puts first on the PATH). {@code .ci/run} installs them, so in CI a
 * missing tool fails the test; on a developer machine without one the test is skipped.
 */
final class Tools {
    /** Where Debian's cloud-init package puts its Python modules. */
    static final Path CLOUD_INIT = Path.of("/usr/lib/python3/dist-packages/cloudinit");

    static final Path DEBIAN_PYTHON = Path.of("/usr/bin/python3");

    private Tools() {}

    static Path require(String name) {
        Optional<Path> found = find(name);
        if (found.isEmpty()) {
            missing(name + " is not installed");
        }
        return found.get();
    }

    /** Debian's python3 with Debian's cloud-init importable. */
    static Path requireCloudInit() {
        if (!Files.isExecutable(DEBIAN_PYTHON) || !Files.isDirectory(CLOUD_INIT)) {
            missing("Debian's cloud-init (" + CLOUD_INIT + ") is not installed");
        }
        return DEBIAN_PYTHON;
    }

    private static Optional<Path> find(String name) {
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
            fail(why + "; .ci/run should have installed it");
        }
        assumeTrue(false, why + " here; skipping (CI installs it)");
    }

    /** What a finished command wrote: its standard output as bytes, its standard error as text. */
    static final class Result {
        final int exit;
        final byte[] stdout;
        final String stderr;

        Result(int exit, byte[] stdout, String stderr) {
            this.exit = exit;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        String text() {
            return new String(stdout, StandardCharsets.UTF_8);
        }

        Result ok() {
            assertThat(exit)
                    .as("exit status; stdout:\n%s\nstderr:\n%s", text(), stderr)
                    .isZero();
            return this;
        }
    }

    static Result run(List<String> command) {
        try {
            Path out = Files.createTempFile("seed-tool", ".out");
            Path err = Files.createTempFile("seed-tool", ".err");
            try {
                Process process = new ProcessBuilder(command)
                        .redirectInput(ProcessBuilder.Redirect.from(
                                Path.of("/dev/null").toFile()))
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
                if (!process.waitFor(2, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                    throw new AssertionError("still running after 2 minutes: " + command);
                }
                return new Result(
                        process.exitValue(),
                        Files.readAllBytes(out),
                        new String(Files.readAllBytes(err), StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
