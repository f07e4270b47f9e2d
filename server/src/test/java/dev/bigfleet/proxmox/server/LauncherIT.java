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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/proxmox} as a newcomer runs it, on the packaged jar: it records its class-data
 * archive once, the archive is one the JVM can really use, and the provider serves with it.
 * Runs after {@code package} ({@code mvn verify}).
 */
class LauncherIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path LAUNCHER = ROOT.resolve("bin/proxmox");
    private static final Path ARCHIVE = ROOT.resolve("server/target/bigfleet-proxmox.jsa");
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
    void recordsItsClassDataArchiveOnceAndStartsWithIt() throws Exception {
        Files.deleteIfExists(ARCHIVE);
        Run first = run(Map.of(), "--version");
        assertThat(first.exit()).isZero();
        assertThat(first.stdout()).startsWith("bigfleet-proxmox ");
        assertThat(first.stderr()).contains("recording the class-data archive");
        assertThat(ARCHIVE).isNotEmptyFile();

        // -Xshare:on makes the JVM refuse to start rather than quietly run without an unusable archive
        Run second = run(Map.of("JAVA_OPTS", "-Xshare:on"), "--help");
        assertThat(second.exit()).isZero();
        assertThat(second.stdout()).startsWith("Usage: proxmox");
        assertThat(second.stderr()).doesNotContain("recording").doesNotContain("warning");
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
