package dev.bigfleet.proxmox.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/proxmox} as a newcomer runs it, on the packaged jar: {@code mvn package} recorded the
 * class-data archive, the JVM really uses it, a start never records one, {@code --version} names
 * the build, and the provider serves. Runs after {@code package} ({@code mvn verify}).
 */
class LauncherIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path ARCHIVE = ROOT.resolve("server/target/bigfleet-proxmox.jsa");
    private static final Path JAR = ROOT.resolve("server/target/bigfleet-proxmox.jar");
    private static final Path LIB = ROOT.resolve("server/target/lib");

    @TempDir
    Path dir;

    private record Run(int exit, String stdout, String stderr) {}

    private static Run run(Map<String, String> env, String... args) throws Exception {
        try (ProviderProcess p = ProviderProcess.start(Launch.LAUNCHER, List.of(args), env)) {
            int exit = p.awaitExit(Duration.ofMinutes(2));
            return new Run(exit, p.stdout(), String.join("\n", p.log()));
        }
    }

    @Test
    void theBuildRecordedAnArchiveTheJvmUsesAndVersionNamesTheBuild() throws Exception {
        assertThat(ARCHIVE).as("recorded by mvn package").isNotEmptyFile();
        FileTime recorded = Files.getLastModifiedTime(ARCHIVE);
        try (Stream<Path> libraries = Files.list(LIB)) {
            assertThat(Stream.concat(Stream.of(JAR), libraries).map(LauncherIT::modified))
                    .as("the jar and every library are older than the archive")
                    .allMatch(t -> t.compareTo(recorded) <= 0);
        }
        // -Xshare:on makes the JVM refuse to start rather than quietly run without an unusable archive
        Run version = run(Map.of("JAVA_OPTS", "-Xshare:on"), "--version");
        assertThat(version.exit()).as(version.stderr()).isZero();
        // the commit this checkout is at (the build of this very run recorded it), unknown without git
        assertThat(version.stdout())
                .matches("bigfleet-proxmox \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit "
                        + Pattern.quote(checkedOutCommit()) + "\\)\\s*");
        assertThat(version.stderr()).isEmpty();
        assertThat(Files.getLastModifiedTime(ARCHIVE))
                .as("a start leaves the archive alone")
                .isEqualTo(recorded);
    }

    @Test
    void aStartNeverRecordsTheArchive() throws Exception {
        Path aside = ARCHIVE.resolveSibling("bigfleet-proxmox.jsa.aside");
        Files.move(ARCHIVE, aside);
        try {
            Run help = run(Map.of(), "--help");
            assertThat(help.exit()).isZero();
            assertThat(help.stdout()).startsWith("Usage: proxmox");
            assertThat(help.stderr()).isEmpty();
            assertThat(ARCHIVE).doesNotExist();
        } finally {
            Files.move(aside, ARCHIVE);
        }
    }

    @Test
    void servesAndStopsGracefullyWhenStartedThroughIt() throws Exception {
        try (TestingProvider provider = TestingProvider.builder()
                .launch(Launch.LAUNCHER)
                .seedCount(4)
                .sqliteState(dir.resolve("state.db"))
                .build()) {
            assertThat(provider.get("/readyz").statusCode()).isEqualTo(200);
            assertThat(provider.stop()).as("exit code after SIGTERM").isZero();
            assertThat(provider.log()).anyMatch(l -> l.contains("shutting down"));
        }
    }

    /** {@code git rev-parse --short=12 HEAD} of the checkout, or {@code unknown} without git or its metadata. */
    private static String checkedOutCommit() throws InterruptedException {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short=12", "HEAD")
                    .directory(ROOT.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String head = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(git.waitFor(30, TimeUnit.SECONDS)).as("git finished").isTrue();
            return git.exitValue() == 0 && !head.isEmpty() ? head : "unknown";
        } catch (IOException noGit) {
            return "unknown";
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
