package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CA file and the token file are read again while the backend runs: a certificate change of
 * the cluster followed by a new CA file, and a token file rotated, each mounted as Kubernetes mounts
 * a Secret (a {@code ..data} symlink swapped to a new directory), are used without a restart.
 */
class RotationAgainstSimulatorTest {
    private TestingProxmoxCluster cluster;
    private ProxmoxBackend backend;

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    /** A Kubernetes Secret volume: {@code name -> ..data/name}, {@code ..data -> ..<n>}. */
    private static final class SecretVolume {
        private final Path dir;
        private int generation;

        SecretVolume(Path dir) {
            this.dir = dir;
        }

        Path file(String name) {
            return dir.resolve(name);
        }

        /** Publishes a new generation holding {@code files}, swapping {@code ..data} in one rename. */
        void publish(Map<String, byte[]> files) throws IOException {
            Path next = Files.createDirectory(dir.resolve("..2026_01_0" + ++generation + "_00_00_00.1"));
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Files.write(next.resolve(f.getKey()), f.getValue());
                Path link = dir.resolve(f.getKey());
                if (!Files.isSymbolicLink(link)) {
                    Files.createSymbolicLink(link, Path.of("..data", f.getKey()));
                }
            }
            Path swap = Files.createSymbolicLink(dir.resolve("..data_tmp"), next.getFileName());
            Files.move(
                    swap, dir.resolve("..data"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private boolean describes() {
        try {
            backend.describeManaged();
            return true;
        } catch (BackendException e) {
            return false;
        }
    }

    @Test
    void aNewClusterCertificateIsTrustedOnceTheCaFileIsSwappedWithoutARestart(@TempDir Path dir) throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        SecretVolume volume = new SecretVolume(dir);
        volume.publish(Map.of("ca.pem", Files.readAllBytes(cluster.simulator().caCertificate())));
        backend = SimulatorBackends.backend(
                cluster, "proxmox", Map.of("ca-file", volume.file("ca.pem").toString()), new CountingRecorder());
        assertThat(describes()).isTrue();

        cluster.simulator().replaceCertificates();

        AtomicReference<BackendException> refused = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            try {
                backend.describeManaged();
                return false;
            } catch (BackendException e) {
                refused.set(e);
                return true;
            }
        });
        assertThat(refused.get().isTransient()).isTrue();
        assertThat(refused.get().getMessage()).contains("certificate");
        ApiStatus down = backend.apiStatus().orElseThrow();
        assertThat(down.reachable()).isFalse();
        assertThat(down.lastError()).hasValueSatisfying(m -> assertThat(m).contains("--proxmox-ca-file"));

        volume.publish(Map.of("ca.pem", Files.readAllBytes(cluster.simulator().caCertificate())));

        await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(this::describes);
        assertThat(backend.apiStatus().orElseThrow().reachable()).isTrue();
    }

    @Test
    void aRotatedTokenFileIsSentFromTheNextCallsOn(@TempDir Path dir) throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        SecretVolume volume = new SecretVolume(dir);
        volume.publish(Map.of("token", (SimulatorBackends.SECRET + "\n").getBytes(StandardCharsets.UTF_8)));
        backend = SimulatorBackends.backend(
                cluster, "proxmox", Map.of("token-file", volume.file("token").toString()), new CountingRecorder());
        assertThat(describes()).isTrue();

        String revoked = "0ld5ec7e-0000-4000-8000-000000000000";
        volume.publish(Map.of("token", revoked.getBytes(StandardCharsets.UTF_8)));
        AtomicReference<BackendException> refused = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            try {
                backend.describeManaged();
                return false;
            } catch (BackendException e) {
                refused.set(e);
                return true;
            }
        });
        assertThat(refused.get().getMessage()).contains("HTTP 401").doesNotContain(revoked);

        volume.publish(Map.of("token", (SimulatorBackends.SECRET + "\n").getBytes(StandardCharsets.UTF_8)));
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(this::describes);

        // a half-written or empty file is not sent: the secret in use stays
        Files.writeString(dir.resolve("..data").toRealPath().resolve("token"), "");
        Thread.sleep(1500);
        assertThat(describes()).isTrue();
    }
}
