package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.testing.ClientCertificate;
import dev.bigfleet.proxmox.testing.TestingCertificates;
import dev.bigfleet.proxmox.testing.TestingProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bigfleetctl with the provider's gRPC behind TLS with required client certificates (mTLS): with a
 * certificate naming no shard it reads, and drives the lifecycle where the provider lets such
 * certificates mutate ({@code --tls-unnamed-clients mutate}); with a shard's certificate it sends
 * that shard's fence tokens only.
 */
class CtlMutualTlsTest {
    private static final String ID = "proxmox/OnDemand/pve.large/pve-a/000";
    private static final String SHARD_MACHINE = "proxmox/OnDemand/pve.large/pve-b/000";

    @TempDir
    static Path dir;

    private static TestingCertificates certs;
    private static TestingProvider provider;
    private static String addr;

    @BeforeAll
    static void start() throws Exception {
        certs = TestingCertificates.create(dir);
        provider = TestingProvider.builder()
                .noHttp()
                .seedCount(4)
                .fakeLatency(Duration.ofMillis(20))
                .mutualTls(certs)
                .flags("--tls-unnamed-clients", "mutate")
                .build();
        addr = "127.0.0.1:" + provider.grpcPort();
    }

    private static Ctl presenting(String address, ClientCertificate certificate) {
        return new Ctl(
                "--addr",
                address,
                "--tls-ca",
                certs.caCert().toString(),
                "--tls-cert",
                certificate.certificate().toString(),
                "--tls-key",
                certificate.key().toString());
    }

    @AfterAll
    static void stop() {
        provider.close();
    }

    @Test
    void drivesTheLifecycleWithAClientCertificate() throws Exception {
        Path blob = Files.writeString(dir.resolve("blob"), "join-secret");
        Ctl ctl = new Ctl(
                "--addr",
                addr,
                "--tls-ca",
                certs.caCert().toString(),
                "--tls-cert",
                certs.clientCert().toString(),
                "--tls-key",
                certs.clientKey().toString());
        Lifecycle.drive(ctl, ID, blob, Duration.ofSeconds(20));
    }

    @Test
    void aShardsCertificateSendsThatShardsFenceTokensOnly() throws Exception {
        Ctl shardA = presenting(addr, certs.client("shard-a", "bigfleet://shard/shard-a"));
        Ctl.Result impersonating =
                shardA.run("create", SHARD_MACHINE, "--shard-id", "shard-b", "--epoch", "9", "--seq", "9");
        assertThat(impersonating.exit()).isEqualTo(1);
        assertThat(impersonating.err())
                .startsWith("error: PERMISSION_DENIED: the client certificate is shard \"shard-a\"");
        Ctl.Result noToken = shardA.run("create", SHARD_MACHINE);
        assertThat(noToken.exit()).isEqualTo(1);
        assertThat(noToken.err()).startsWith("error: PERMISSION_DENIED").endsWith("shard_id is empty\n");
        Ctl.Result own = shardA.run("create", SHARD_MACHINE, "--shard-id", "shard-a", "--epoch", "1", "--seq", "1");
        assertThat(own.exit()).as(own.err()).isZero();
        assertThat(own.out()).contains("CREATING");
    }

    @Test
    void byDefaultACertificateNamingNoShardOnlyReads() throws Exception {
        try (TestingProvider readOnly = TestingProvider.builder()
                .noHttp()
                .seedCount(4)
                .fakeLatency(Duration.ZERO)
                .mutualTls(certs)
                .build()) {
            Ctl ctl = presenting(
                    "127.0.0.1:" + readOnly.grpcPort(), new ClientCertificate(certs.clientCert(), certs.clientKey()));
            Ctl.Result list = ctl.run("list");
            assertThat(list.exit()).as(list.err()).isZero();
            assertThat(list.out()).contains("4 machines");
            Ctl.Result get = ctl.run("get", ID);
            assertThat(get.exit()).as(get.err()).isZero();
            Ctl.Result create = ctl.run("create", ID);
            assertThat(create.exit()).isEqualTo(1);
            assertThat(create.err())
                    .startsWith("error: PERMISSION_DENIED: the client certificate names no shard")
                    .contains("--tls-unnamed-clients");
        }
    }

    @Test
    void withoutAClientCertificateOrTlsTheCallFails() {
        Ctl.Result noClientCert = Ctl.runExactly(
                "list", "--addr", addr, "--tls-ca", certs.caCert().toString());
        assertThat(noClientCert.exit()).isEqualTo(1);
        assertThat(noClientCert.err()).startsWith("error: UNAVAILABLE");
        Ctl.Result plaintext = Ctl.runExactly("list", "--addr", addr, "--timeout", "5s");
        assertThat(plaintext.exit()).isEqualTo(1);
        assertThat(plaintext.err()).startsWith("error: UNAVAILABLE");
    }

    @Test
    void theServerCertificateIsVerified() {
        // the system's trust roots do not know the test CA
        Ctl.Result untrusted = Ctl.runExactly(
                "list",
                "--addr",
                addr,
                "--tls",
                "--tls-cert",
                certs.clientCert().toString(),
                "--tls-key",
                certs.clientKey().toString());
        assertThat(untrusted.exit()).isEqualTo(1);
        assertThat(untrusted.err()).startsWith("error: UNAVAILABLE");
        // the certificate names 127.0.0.1 and localhost, not this
        Ctl.Result wrongName = Ctl.runExactly(
                "list",
                "--addr",
                addr,
                "--tls-ca",
                certs.caCert().toString(),
                "--tls-cert",
                certs.clientCert().toString(),
                "--tls-key",
                certs.clientKey().toString(),
                "--tls-server-name",
                "provider.example");
        assertThat(wrongName.exit()).isEqualTo(1);
        assertThat(wrongName.err()).startsWith("error: UNAVAILABLE");
        Ctl.Result keyWithoutCert = Ctl.runExactly(
                "list", "--addr", addr, "--tls-key", certs.clientKey().toString());
        assertThat(keyWithoutCert.exit()).isEqualTo(1);
        assertThat(keyWithoutCert.err()).isEqualTo("error: --tls-cert and --tls-key go together\n");
    }
}
