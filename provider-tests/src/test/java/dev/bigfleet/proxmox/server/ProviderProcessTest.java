package dev.bigfleet.proxmox.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The provider as a process: exit codes, one-line errors, probes, and a graceful SIGTERM. */
@Tag("process")
class ProviderProcessTest {
    private static final Duration START = Duration.ofSeconds(60);
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> errorLines(ProviderProcess p) {
        return p.log().stream().filter(l -> !l.isBlank()).toList();
    }

    @Test
    void anUnknownFlagIsAUsageErrorWithExitCode2() throws Exception {
        try (ProviderProcess p =
                ProviderProcess.start(Launch.OWN_JVM, List.of("--use-fake-backend", "--no-such-flag"))) {
            assertThat(p.awaitExit(START)).isEqualTo(2);
            assertThat(errorLines(p)).singleElement().asString().contains("--no-such-flag");
        }
    }

    @Test
    void aStrayPositionalArgumentIsRefusedNotIgnored() throws Exception {
        try (ProviderProcess p =
                ProviderProcess.start(Launch.OWN_JVM, List.of("--use-fake-backend", "stray", "--seed-count", "1"))) {
            assertThat(p.awaitExit(START)).isEqualTo(2);
            assertThat(errorLines(p)).singleElement().asString().contains("stray");
        }
    }

    @Test
    void anInvalidConfigurationExitsWithOneLineNamingTheFlag() throws Exception {
        try (ProviderProcess p =
                ProviderProcess.start(Launch.OWN_JVM, List.of("--use-fake-backend", "--prices", "pve.small=NaN"))) {
            assertThat(p.awaitExit(START)).isEqualTo(1);
            assertThat(errorLines(p)).singleElement().asString().startsWith("error: --prices:");
        }
        try (ProviderProcess p = ProviderProcess.start(Launch.OWN_JVM, List.of())) {
            assertThat(p.awaitExit(START)).isEqualTo(1);
            assertThat(errorLines(p)).singleElement().asString().contains("--use-fake-backend");
        }
    }

    @Test
    void aTakenPortStopsStartupWithOneLineNamingTheFlag() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + taken.getLocalPort();
            try (ProviderProcess p = ProviderProcess.start(
                    Launch.OWN_JVM,
                    List.of("--use-fake-backend", "--addr", "127.0.0.1:0", "--metrics-addr", address))) {
                assertThat(p.awaitExit(START)).isEqualTo(1);
                assertThat(errorLines(p))
                        .filteredOn(l -> l.startsWith("error:"))
                        .singleElement()
                        .asString()
                        .startsWith("error: --metrics-addr " + address + ": cannot serve HTTP");
            }
            try (ProviderProcess p = ProviderProcess.start(
                    Launch.OWN_JVM,
                    List.of("--use-fake-backend", "--addr", address, "--metrics-addr", "127.0.0.1:0"))) {
                assertThat(p.awaitExit(START)).isEqualTo(1);
                assertThat(errorLines(p))
                        .filteredOn(l -> l.startsWith("error:"))
                        .singleElement()
                        .asString()
                        .startsWith("error: --addr " + address + ": cannot listen");
            }
        }
    }

    @Test
    void servesProbesAndHealthThenStopsGracefullyOnSigterm() throws Exception {
        try (ProviderProcess p = ProviderProcess.start(
                Launch.OWN_JVM,
                List.of(
                        "--use-fake-backend",
                        "--addr",
                        "127.0.0.1:0",
                        "--metrics-addr",
                        "127.0.0.1:0",
                        "--fake-latency",
                        "0s",
                        "--seed-count",
                        "8"))) {
            ProviderProcess.ServingPorts ports = p.awaitServing(START);
            assertThat(p.log()).anyMatch(l -> l.contains("WARN") && l.contains("IN-MEMORY"));
            HttpResponse<String> healthz = get(ports.http().orElseThrow(), "/healthz");
            assertThat(healthz.statusCode()).isEqualTo(200);
            assertThat(healthz.body()).isEqualTo("ok\n");
            HttpResponse<String> readyz = get(ports.http().orElseThrow(), "/readyz");
            assertThat(readyz.statusCode()).isEqualTo(200);
            assertThat(readyz.body()).isEqualTo("ready\n");

            ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", ports.grpc())
                    .usePlaintext()
                    .build();
            try {
                assertThat(HealthGrpc.newBlockingStub(channel)
                                .check(HealthCheckRequest.getDefaultInstance())
                                .getStatus())
                        .isEqualTo(ServingStatus.SERVING);
                assertThat(CapacityProviderGrpc.newBlockingStub(channel)
                                .list(ListFilter.getDefaultInstance())
                                .getMachinesCount())
                        .isEqualTo(8);
            } finally {
                channel.shutdownNow();
            }
            // an explicit SIGTERM, as an init system sends it
            new ProcessBuilder("kill", "-TERM", Long.toString(p.process().pid()))
                    .start()
                    .waitFor();
            assertThat(p.awaitExit(Duration.ofSeconds(30))).isZero();
            assertThat(p.log()).as("stderr").anyMatch(l -> l.contains("shutting down"));
        }
    }
}
