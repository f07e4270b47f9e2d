package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.ForeignVm;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the backend refuses at startup, each with one line naming the flag. */
class StartupAgainstSimulatorTest {
    private TestingProxmoxCluster cluster;

    @BeforeEach
    void start() {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private Exception refused(Map<String, String> overrides) {
        return refused(overrides, List.of("pve1", "pve2"), SimulatorBackends.offerings(), SimulatorBackends.CATALOG);
    }

    private Exception refused(
            Map<String, String> overrides, List<String> nodes, List<Offering> offerings, InstanceTypeCatalog catalog) {
        Map<String, String> o = new HashMap<>(SimulatorBackends.options(cluster));
        o.putAll(overrides);
        o.values().removeIf(String::isEmpty);
        try (ProxmoxBackend b = new ProxmoxApiBackendFactory()
                .create(new BackendContext("proxmox", nodes, catalog, offerings, BackendOptions.of(o)))) {
            throw new AssertionError("startup was not refused: " + b);
        } catch (RuntimeException e) {
            Leaks.assertNoSecret(String.valueOf(e.getMessage()));
            assertThat(e.getMessage()).doesNotContain("\n");
            return e;
        }
    }

    @Test
    void caAndPinAndBothModesAllConnect() throws Exception {
        for (Map<String, String> mode : List.of(
                Map.of("tls-fingerprint", ""),
                Map.of("ca-file", "", "tls-fingerprint", cluster.simulator().fingerprint()),
                Map.of(
                        "ca-file",
                        "",
                        "tls-fingerprint",
                        cluster.simulator().fingerprint().replace(":", "").toLowerCase(Locale.ROOT)),
                Map.of("tls-fingerprint", cluster.simulator().fingerprint()))) {
            try (ProxmoxBackend b = SimulatorBackends.backend(cluster, "proxmox", mode, new CountingRecorder())) {
                assertThat(b.describeManaged()).isEmpty();
            }
        }
    }

    @Test
    void aWrongSecretIsAClearAuthenticationError(@TempDir Path dir) throws Exception {
        Path wrong = dir.resolve("secret");
        Files.writeString(wrong, "not-the-secret");
        Exception e = refused(Map.of("token-file", wrong.toString()));
        assertThat(e).isInstanceOf(IllegalArgumentException.class);
        assertThat(e.getMessage())
                .startsWith("--proxmox-token-id: the Proxmox API refused the token")
                .contains("HTTP 401")
                .doesNotContain("not-the-secret");
    }

    @Test
    void theTokenFileWinsOverTheInlineSecret() throws Exception {
        try (ProxmoxBackend b = SimulatorBackends.backend(
                cluster, "proxmox", Map.of("token-secret", "ignored"), new CountingRecorder())) {
            assertThat(b.describeManaged()).isEmpty();
        }
    }

    @Test
    void aWrongFingerprintIsRefused() {
        String other = "AB:".repeat(31) + "AB";
        Exception e = refused(Map.of("ca-file", "", "tls-fingerprint", other));
        assertThat(e.getMessage())
                .startsWith("--proxmox-tls-fingerprint:")
                .contains("fingerprint does not match --proxmox-tls-fingerprint");
        Exception both = refused(Map.of("tls-fingerprint", other));
        assertThat(both.getMessage()).startsWith("--proxmox-tls-fingerprint:");
    }

    @Test
    void aCertificateFromAnotherCaIsRefused() {
        try (TestingProxmoxCluster other =
                TestingProxmoxCluster.builder().pool(POOL).start()) {
            Exception e =
                    refused(Map.of("ca-file", other.simulator().caCertificate().toString()));
            assertThat(e.getMessage())
                    .startsWith("--proxmox-ca-file:")
                    .contains("not signed by a certificate authority in --proxmox-ca-file");
        }
    }

    @Test
    void caModeChecksTheHostNameAndPinModeDoesNot() throws Exception {
        Optional<String> address = nonLoopbackAddress();
        assumeTrue(address.isPresent(), "no non-loopback IPv4 address to reach the simulator by");
        try (TestingProxmoxCluster wide = TestingProxmoxCluster.builder()
                .pool(POOL)
                .customize(b -> b.address("0.0.0.0:0"))
                .start()) {
            String url = "https://" + address.get() + ":" + wide.simulator().port() + "/api2/json";
            Map<String, String> o = new HashMap<>(SimulatorBackends.options(wide));
            o.put("api-url", url);
            try {
                new ProxmoxApiBackendFactory()
                        .create(new BackendContext(
                                "proxmox",
                                List.of("pve1", "pve2"),
                                SimulatorBackends.CATALOG,
                                SimulatorBackends.offerings(),
                                BackendOptions.of(o)))
                        .close();
                throw new AssertionError("a certificate that does not name " + address.get() + " was accepted");
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).startsWith("--proxmox-ca-file:").contains("hostname verification failed");
            }
            o.remove("ca-file");
            o.put("tls-fingerprint", wide.simulator().fingerprint());
            try (ProxmoxBackend pinned = new ProxmoxApiBackendFactory()
                    .create(new BackendContext(
                            "proxmox",
                            List.of("pve1", "pve2"),
                            SimulatorBackends.CATALOG,
                            SimulatorBackends.offerings(),
                            BackendOptions.of(o)))) {
                assertThat(pinned.describeManaged()).isEmpty();
            }
        }
    }

    private static Optional<String> nonLoopbackAddress() throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (!nic.isUp() || nic.isLoopback()) {
                continue;
            }
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return Optional.of(a.getHostAddress());
                }
            }
        }
        return Optional.empty();
    }

    @Test
    void plainHttpAndMalformedTokenIdsAndMissingTlsMaterialAreRefused() {
        assertThat(refused(Map.of("api-url", "http://127.0.0.1:8006/api2/json")).getMessage())
                .isEqualTo("--proxmox-api-url: http:// would send the API token in clear; use https://");
        assertThat(refused(Map.of("token-id", "bigfleet@pve")).getMessage())
                .startsWith("--proxmox-token-id: \"bigfleet@pve\" is not a token id of the form USER@REALM!TOKENID");
        assertThat(refused(Map.of("ca-file", "")).getMessage())
                .startsWith("--proxmox-ca-file / --proxmox-tls-fingerprint: TLS verification material is required");
    }

    @Test
    void nodesMustExistAndCoverEveryOffering() {
        assertThat(refused(Map.of(), List.of(), SimulatorBackends.offerings(), SimulatorBackends.CATALOG)
                        .getMessage())
                .startsWith("--nodes: required by the proxmox backend");
        assertThat(refused(Map.of(), List.of("pve1"), SimulatorBackends.offerings(), SimulatorBackends.CATALOG)
                        .getMessage())
                .isEqualTo("--nodes: offering pve.small is placed on node pve2, which is not in --nodes (pve1)");
        List<Offering> onPve9 =
                List.of(new Offering("pve.small", "pve9", CapacityType.ON_DEMAND, 1, Map.of(), Map.of()));
        assertThat(refused(Map.of(), List.of("pve1", "pve9"), onPve9, SimulatorBackends.CATALOG)
                        .getMessage())
                .isEqualTo("--nodes: pve9 is not a node of this Proxmox cluster (it has: pve1,pve2)");
    }

    @Test
    void aTemplateVmidThatIsNotATemplateIsRefused() {
        cluster.simulator().faults().createForeignVm(ForeignVm.of(9001, "pve1"));
        Exception e = refused(
                Map.of(), List.of("pve1", "pve2"), SimulatorBackends.offerings(), InstanceTypeCatalog.builtIn(9001));
        assertThat(e.getMessage())
                .isEqualTo("--template-vmid: instance type pve.small on node pve1: VMID 9001 is a VM, not a template"
                        + " (convert it with `qm template 9001`)");
        Exception missing = refused(
                Map.of(), List.of("pve1", "pve2"), SimulatorBackends.offerings(), InstanceTypeCatalog.builtIn(9555));
        assertThat(missing.getMessage()).contains("template VMID 9555").contains("is not in the cluster");
    }

    @Test
    void anUnknownPoolIsRefused() {
        assertThat(refused(Map.of("pool", "nope")).getMessage()).startsWith("--proxmox-pool: pool \"nope\"");
    }

    @Test
    void anUnreachableClusterIsAStartupError() {
        int port = cluster.simulator().port();
        cluster.simulator().close();
        Exception e = refused(Map.of());
        assertThat(e).isInstanceOf(IllegalStateException.class);
        assertThat(e.getMessage()).startsWith("cannot reach the Proxmox API:").contains(":" + port);
    }
}
