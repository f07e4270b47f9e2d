package dev.bigfleet.proxmox.packaging.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.packaging.Tools;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc.CapacityProviderBlockingStub;
import dev.bigfleet.proxmox.proto.v1alpha1.CreateRequest;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineRef;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.proto.v1alpha1.TransitionAck;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image the build wrote, run as a container runtime runs it: podman with crun where
 * that works on this machine, else unpacked with umoci and run in a chroot with the image's own
 * entrypoint, user, environment and working directory. Root filesystem read-only, state on a
 * mounted volume, {@code /tmp} a fresh tmpfs. Runs after {@code package} ({@code mvn verify}).
 */
class ImageIT {
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path ARCHIVE = TARGET.resolve("bigfleet-proxmox-image.tar");
    private static final Path REBUILT = TARGET.resolve("reproducibility/bigfleet-proxmox-image.tar");
    private static final Path CHROOT_SCRIPT =
            Path.of("src/test/resources/run-in-chroot.sh").toAbsolutePath();
    private static final int NON_ROOT = 65532;

    @TempDir
    static Path dir;

    static OciImage image;

    @BeforeAll
    static void openTheImage() throws IOException {
        image = OciImage.open(ARCHIVE, dir.resolve("layout"));
    }

    @Test
    void runsAsANonRootUserWithinAContainerMemoryLimitAndIsAtMost120MiB() throws IOException {
        assertThat(image.container().get("User").asText()).isEqualTo(NON_ROOT + ":" + NON_ROOT);
        assertThat(image.entrypoint())
                .startsWith("/opt/java/bin/java")
                .contains("-XX:MaxRAMPercentage=75.0")
                .endsWith("-jar", "/opt/bigfleet-proxmox/bigfleet-proxmox.jar");
        assertThat(image.container().get("WorkingDir").asText()).isEqualTo(ContainerRuntime.STATE_VOLUME);
        assertThat(image.uncompressedSize()).isLessThanOrEqualTo(120L * 1024 * 1024);
    }

    @Test
    void aSecondBuildFromTheSameInputGivesByteIdenticalLayers() throws IOException {
        OciImage rebuilt = OciImage.open(REBUILT, dir.resolve("rebuilt"));
        assertThat(image.layerDigests()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(rebuilt.layerDigests()).isEqualTo(image.layerDigests());
        assertThat(rebuilt.manifest.get("config").get("digest"))
                .isEqualTo(image.manifest.get("config").get("digest"));
    }

    @Test
    void servesCreatesAndKeepsItsStateAcrossARestartWithAReadOnlyRoot() throws Exception {
        Tools.requireRoot();
        Path state = Files.createDirectories(dir.resolve("state"));
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwx------"));
        Files.setAttribute(state, "unix:uid", NON_ROOT);
        Files.setAttribute(state, "unix:gid", NON_ROOT);
        ContainerRuntime runtime = runtime();
        int grpcPort = freePort();
        int httpPort = freePort();
        List<String> args = List.of(
                "--use-fake-backend",
                "--fake-latency",
                "0s",
                "--seed-count",
                "4",
                "--addr",
                "127.0.0.1:" + grpcPort,
                "--metrics-addr",
                "127.0.0.1:" + httpPort,
                "--state",
                ContainerRuntime.STATE_VOLUME + "/state.db");

        Process first = runtime.start(args, state, dir.resolve("first.log"));
        String id;
        TransitionAck ack;
        Machine idle;
        try {
            awaitReady(first, httpPort, dir.resolve("first.log"));
            try (Grpc grpc = new Grpc(grpcPort)) {
                id = grpc.stub()
                        .list(ListFilter.newBuilder().setMaxResults(1).build())
                        .getMachines(0)
                        .getId();
                ack = grpc.stub()
                        .create(CreateRequest.newBuilder().setMachineId(id).build());
                assertThat(ack.getOperationId()).isNotEmpty();
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> grpc.get(id).getState() == MachineState.MACHINE_STATE_IDLE);
                idle = grpc.get(id);
            }
        } finally {
            stop(first);
        }
        assertThat(first.exitValue()).as("graceful stop on SIGTERM").isZero();
        assertThat(state.resolve("state.db")).isNotEmptyFile();

        Process second = runtime.start(args, state, dir.resolve("second.log"));
        try {
            awaitReady(second, httpPort, dir.resolve("second.log"));
            try (Grpc grpc = new Grpc(grpcPort)) {
                Machine machine = grpc.get(id);
                assertThat(machine.getState()).isEqualTo(MachineState.MACHINE_STATE_IDLE);
                assertThat(machine.getHost()).isEqualTo(idle.getHost());
                // a retried Create after the restart is the same operation, so the fence and ids came back too
                assertThat(grpc.stub()
                                .create(CreateRequest.newBuilder()
                                        .setMachineId(id)
                                        .build())
                                .getOperationId())
                        .isEqualTo(ack.getOperationId());
            }
        } finally {
            stop(second);
        }
        assertThat(Files.readString(dir.resolve("second.log"))).contains("state reloaded: machines=4");
    }

    private static ContainerRuntime runtime() throws IOException {
        Path podmanState = Files.createDirectories(dir.resolve("probe-state"));
        return PodmanRuntime.ifItWorks(Tools.find("podman"), ARCHIVE, image.reference, podmanState)
                .orElseGet(() -> {
                    try {
                        return ChrootRuntime.unpack(
                                image, Tools.require("umoci"), dir.resolve("bundle"), CHROOT_SCRIPT);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
    }

    private static void awaitReady(Process provider, int httpPort, Path log) {
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
                        return ready.statusCode() == 200 && ready.body().startsWith("ready");
                    } catch (IOException notYet) {
                        return false;
                    }
                });
    }

    private static void stop(Process provider) throws InterruptedException {
        provider.destroy();
        if (!provider.waitFor(60, TimeUnit.SECONDS)) {
            provider.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static final class Grpc implements AutoCloseable {
        final ManagedChannel channel;

        Grpc(int port) {
            channel = ManagedChannelBuilder.forAddress("127.0.0.1", port)
                    .usePlaintext()
                    .build();
        }

        CapacityProviderBlockingStub stub() {
            return CapacityProviderGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        }

        Machine get(String id) {
            return stub().get(MachineRef.newBuilder().setId(id).build());
        }

        @Override
        public void close() {
            channel.shutdownNow();
        }
    }
}
