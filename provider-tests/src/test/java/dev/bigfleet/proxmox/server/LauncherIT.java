package dev.bigfleet.proxmox.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
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
    private static final Path LAUNCHER = ROOT.resolve("bin/proxmox");
    private static final Path ARCHIVE = ROOT.resolve("server/target/bigfleet-proxmox.jsa");
    private static final Path JAR = ROOT.resolve("server/target/bigfleet-proxmox.jar");
    private static final Path LIB = ROOT.resolve("server/target/lib");
    private static final Pattern SERVING = Pattern.compile("serving CapacityProvider .*metrics_addr=\\S*:(\\d+)");

    @TempDir
    Path dir;

    private record Run(int exit, String stdout, String stderr) {}

    private Run run(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished").isTrue();
        return new Run(p.exitValue(), Files.readString(dir.resolve("out")), Files.readString(dir.resolve("err")));
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
        Path err = dir.resolve("serve-err");
        Process p = new ProcessBuilder(
                        LAUNCHER.toString(),
                        "--use-fake-backend",
                        "--addr",
                        "127.0.0.1:0",
                        "--metrics-addr",
                        "127.0.0.1:0",
                        "--seed-count",
                        "4",
                        "--state",
                        dir.resolve("state.db").toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile())
                .start();
        try {
            int httpPort = awaitServing(p, err, Duration.ofMinutes(2));
            HttpResponse<String> readyz = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(readyz.statusCode()).isEqualTo(200);
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isZero();
            assertThat(Files.readString(err, StandardCharsets.UTF_8)).contains("shutting down");
        } finally {
            p.destroyForcibly();
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

    private static int awaitServing(Process p, Path err, Duration timeout) throws IOException, InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            Matcher m = SERVING.matcher(Files.readString(err, StandardCharsets.UTF_8));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!p.isAlive()) {
                throw new AssertionError("exited with " + p.exitValue() + ": " + Files.readString(err));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("did not serve: " + Files.readString(err));
    }
}
