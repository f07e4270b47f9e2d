package dev.bigfleet.proxmox.packaging.deb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.packaging.Commands;
import dev.bigfleet.proxmox.packaging.Tools;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package the build wrote, as an administrator uses it: lintian finds no error,
 * {@code dpkg -i} installs it (its system user, state directory and token file), systemd accepts
 * its unit, the installed command serves on the fake backend as that user, and {@code dpkg -r}
 * removes it and leaves the state. Needs root and Debian's tools; runs after {@code package}.
 */
class DebianPackageIT {
    private static final Path STATE_DIR = Path.of("/var/lib/bigfleet-proxmox");
    private static final Path COMMAND = Path.of("/usr/bin/bigfleet-proxmox");
    private static final Path UNIT = Path.of("/lib/systemd/system/bigfleet-proxmox.service");

    @TempDir
    Path dir;

    static Path deb;

    @BeforeAll
    static void findThePackage() throws IOException {
        try (DirectoryStream<Path> debs = Files.newDirectoryStream(Path.of("target"), "bigfleet-proxmox_*_all.deb")) {
            deb = debs.iterator().next().toAbsolutePath();
        }
    }

    @AfterAll
    static void leaveTheMachineAsItWas() {
        if (Tools.find("dpkg").isPresent() && "root".equals(System.getProperty("user.name"))) {
            Commands.run(List.of("dpkg", "--purge", "bigfleet-proxmox"));
            Commands.run(List.of("rm", "-rf", STATE_DIR.toString(), "/etc/bigfleet-proxmox"));
            Commands.run(List.of("deluser", "--system", "--quiet", "bigfleet-proxmox"));
        }
    }

    @Test
    void lintianFindsNoError() {
        Path lintian = Tools.require("lintian");
        Commands.Result result = Commands.run(List.of(lintian.toString(), "--fail-on", "error", deb.toString()));
        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).doesNotContainPattern("(?m)^E: ");
    }

    @Test
    void installsServesAsItsOwnUserAndIsRemovedKeepingItsState() throws Exception {
        Tools.requireRoot();
        Path dpkg = Tools.require("dpkg");
        Path systemdAnalyze = Tools.require("systemd-analyze");
        Tools.require("setpriv");

        Commands.run(List.of(dpkg.toString(), "-i", deb.toString())).ok();
        assertThat(COMMAND).isExecutable();
        assertThat(Commands.run(List.of("id", "-u", "bigfleet-proxmox"))
                        .ok()
                        .output()
                        .strip())
                .isNotEqualTo("0");
        assertThat(Files.getOwner(STATE_DIR).getName()).isEqualTo("bigfleet-proxmox");
        assertThat(Path.of("/etc/bigfleet-proxmox/proxmox-token")).exists();

        Commands.Result verify = Commands.run(List.of(systemdAnalyze.toString(), "verify", UNIT.toString()));
        assertThat(verify.exit()).as(verify.output()).isZero();
        assertThat(verify.output())
                .as("systemd's complaints about the unit")
                .doesNotContain("bigfleet-proxmox.service");
        assertThat(Files.readString(UNIT))
                .contains("User=bigfleet-proxmox", "StateDirectory=bigfleet-proxmox", "ProtectSystem=strict")
                .contains("NoNewPrivileges=yes", "LoadCredential=proxmox-token:/etc/bigfleet-proxmox/proxmox-token");

        int grpcPort = freePort();
        int httpPort = freePort();
        Path log = dir.resolve("provider.log");
        Process provider = new ProcessBuilder(
                        "setpriv",
                        "--reuid=bigfleet-proxmox",
                        "--regid=bigfleet-proxmox",
                        "--init-groups",
                        "--",
                        COMMAND.toString(),
                        "--use-fake-backend",
                        "--fake-latency=0s",
                        "--seed-count=4",
                        "--addr=127.0.0.1:" + grpcPort,
                        "--metrics-addr=127.0.0.1:" + httpPort,
                        "--state=" + STATE_DIR.resolve("state.db"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> {
                        assertThat(provider.isAlive())
                                .as("provider running; its log:\n%s", Files.readString(log))
                                .isTrue();
                        try {
                            HttpResponse<String> ready = http.send(
                                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/readyz"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
                            return ready.statusCode() == 200;
                        } catch (IOException notYet) {
                            return false;
                        }
                    });
        } finally {
            provider.destroy();
            if (!provider.waitFor(60, TimeUnit.SECONDS)) {
                provider.destroyForcibly().waitFor();
            }
        }
        assertThat(provider.exitValue())
                .as("graceful stop; log:\n%s", Files.readString(log))
                .isZero();
        Path state = STATE_DIR.resolve("state.db");
        assertThat(state).isNotEmptyFile();
        assertThat(Files.getOwner(state).getName()).isEqualTo("bigfleet-proxmox");

        Commands.run(List.of(dpkg.toString(), "-r", "bigfleet-proxmox")).ok();
        assertThat(COMMAND).doesNotExist();
        assertThat(UNIT).doesNotExist();
        assertThat(state).as("the state outlives the package").isNotEmptyFile();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
