package dev.bigfleet.proxmox.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.proto.v1alpha1.CapacityProviderGrpc;
import dev.bigfleet.proxmox.proto.v1alpha1.ListFilter;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.testing.TestingCertificates;
import dev.bigfleet.proxmox.testing.TestingProvider;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The gRPC listener with --tls-cert/--tls-key (TLS 1.3) and --tls-ca (required, verified client certificates). */
class GrpcTlsTest {
    @TempDir
    static Path dir;

    static TestingCertificates certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestingCertificates.create(dir);
    }

    private static TestingProvider start(String... tls) throws Exception {
        return TestingProvider.builder()
                .noHttp()
                .seedCount(2)
                .fakeLatency(Duration.ZERO)
                .flags(tls)
                .build();
    }

    private static int listOver(int port, SslContextBuilder client) throws Exception {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port)
                .sslContext(client.build())
                .build();
        try {
            return CapacityProviderGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .list(ListFilter.getDefaultInstance())
                    .getMachinesCount();
        } finally {
            channel.shutdownNow();
        }
    }

    private static SslContextBuilder trustingOurCa() {
        return GrpcSslContexts.forClient().trustManager(certs.caCert().toFile());
    }

    @Test
    void tlsServesClientsThatTrustTheCertificateOverTls13Only() throws Exception {
        try (TestingProvider provider = start(
                "--tls-cert",
                certs.serverCert().toString(),
                "--tls-key",
                certs.serverKey().toString())) {
            assertThat(listOver(provider.grpcPort(), trustingOurCa())).isEqualTo(2);
            assertThatThrownBy(
                            () -> listOver(provider.grpcPort(), trustingOurCa().protocols("TLSv1.2")))
                    .isInstanceOf(StatusRuntimeException.class);
            assertThatThrownBy(() -> listOver(
                            provider.grpcPort(),
                            GrpcSslContexts.forClient()
                                    .trustManager(certs.otherCaCert().toFile())))
                    .isInstanceOf(StatusRuntimeException.class);
        }
    }

    @Test
    void mutualTlsRequiresAClientCertificateFromTheConfiguredCa() throws Exception {
        try (TestingProvider provider = start(
                "--tls-cert",
                certs.serverCert().toString(),
                "--tls-key",
                certs.serverKey().toString(),
                "--tls-ca",
                certs.caCert().toString())) {
            assertThat(listOver(
                            provider.grpcPort(),
                            trustingOurCa()
                                    .keyManager(
                                            certs.clientCert().toFile(),
                                            certs.clientKey().toFile())))
                    .isEqualTo(2);
            assertThatThrownBy(() -> listOver(provider.grpcPort(), trustingOurCa()))
                    .isInstanceOf(StatusRuntimeException.class);
            assertThatThrownBy(() -> listOver(
                            provider.grpcPort(),
                            trustingOurCa()
                                    .keyManager(
                                            certs.otherClientCert().toFile(),
                                            certs.otherClientKey().toFile())))
                    .isInstanceOf(StatusRuntimeException.class);
        }
    }

    @Test
    void unusableKeyMaterialStopsStartupWithOneLine() throws Exception {
        Path garbage = dir.resolve("garbage.pem");
        Files.writeString(garbage, "not a certificate");
        assertThatThrownBy(() -> start(
                        "--tls-cert",
                        garbage.toString(),
                        "--tls-key",
                        certs.serverKey().toString()))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--tls-cert " + garbage + ": no PEM certificate")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> start(
                        "--tls-cert",
                        certs.serverCert().toString(),
                        "--tls-key",
                        certs.clientKey().toString()))
                .as("a key that is not the certificate's")
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("--tls-cert/--tls-key: a TLS 1.3 handshake with them fails");
    }
}
