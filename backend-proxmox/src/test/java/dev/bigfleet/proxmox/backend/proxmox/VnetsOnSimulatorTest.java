package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.backend.proxmox.client.SdnVnet;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.pvesim.TokenPrivileges;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.pvesim.VnetSpec;
import dev.bigfleet.proxmox.spi.BackendContext;
import dev.bigfleet.proxmox.spi.BackendOptions;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.PreflightReport;
import dev.bigfleet.proxmox.spi.PreflightRequest;
import dev.bigfleet.proxmox.spi.PreflightRow;
import dev.bigfleet.proxmox.spi.PreflightStep;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * NICs on SDN VNets: a VNet's NIC needs {@code SDN.Use} in the VNet's own zone, which startup reads
 * from {@code GET /cluster/sdn/vnets} (once, and only when a NIC is on a VNet), checks, and names
 * when it is missing; a node's own bridge stays in {@code localnetwork}; a token that may not see
 * the VNets, or a Proxmox VE without SDN, gets today's {@code localnetwork} check.
 */
class VnetsOnSimulatorTest {
    private static final String TAGS = "[\"bigfleet-template\"]";
    private static final String ZONE1 = "/sdn/zones/zone1";

    private TestingProxmoxCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private static InstanceTypeCatalog small(String networks) {
        return SimulatorBackends.catalog(
                SimulatorBackends.type("pve.small", Map.of("template_tags", TAGS, "networks", networks)));
    }

    /**
     * The nodes' bridges vmbr0 and vmbr1, the VNets tenant1 (zone1, tag 100) and tenant2 (zone2), and
     * a pool-scoped token (SDN.Use on localnetwork, nothing in the other zones) with {@code
     * privileges} applied.
     */
    private ProxmoxBackend start(InstanceTypeCatalog catalog, UnaryOperator<TokenPrivileges> privileges)
            throws Exception {
        return start(catalog, privileges, c -> {});
    }

    private ProxmoxBackend start(
            InstanceTypeCatalog catalog,
            UnaryOperator<TokenPrivileges> privileges,
            Consumer<TestingProxmoxCluster> beforeStartup)
            throws Exception {
        startCluster(privileges);
        beforeStartup.accept(cluster);
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                SimulatorBackends.THREE_NODES,
                catalog,
                SimulatorBackends.onEachNode("pve.small"),
                Map.of(),
                new CountingRecorder());
    }

    private void startCluster(UnaryOperator<TokenPrivileges> privileges) {
        stop();
        TokenPrivileges p = TokenPrivileges.poolScoped(POOL);
        for (int t = 9001; t <= 9003; t++) {
            p.grant("/vms/" + t, "VM.Audit", "VM.Clone");
        }
        cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .nodes(SimulatorBackends.THREE_NODES.stream()
                        .map(n -> NodeSpec.of(n).withBridges("vmbr0", "vmbr1"))
                        .toList())
                .pool(POOL)
                .customize(b -> b.vnet(VnetSpec.of("tenant1", "zone1").withTag(100))
                        .vnet(VnetSpec.of("tenant2", "zone2"))
                        .poolScopedToken(POOL)
                        .tokenPrivileges(privileges.apply(p)))
                .start();
    }

    private String refused(InstanceTypeCatalog catalog, UnaryOperator<TokenPrivileges> privileges) {
        return SimulatorBackends.refusal(() -> start(catalog, privileges));
    }

    private long vnetListings() {
        return cluster.simulator().requests().stream()
                .map(RecordedRequest::call)
                .filter("GET /cluster/sdn/vnets"::equals)
                .count();
    }

    /** The bridge and tag of a clone's NIC as Proxmox stores it. */
    private static String bridgeOf(VmView v, String nic) {
        return String.valueOf(v.config().get(nic)).replaceAll("^.*,bridge=([^,]+).*$", "$1");
    }

    @Test
    void aTypeWhoseNicIsOnAVnetStartsAndItsCloneIsOnTheVnet() throws Exception {
        InstanceTypeCatalog catalog = small("[{\"bridge\": \"tenant1\"}, {\"bridge\": \"vmbr1\", \"vlan\": 20}]");
        try (ProxmoxBackend backend = start(catalog, p -> p.grant(ZONE1, "SDN.Audit", "SDN.Use"))) {
            assertThat(vnetListings())
                    .as("the VNets are read once, for all nodes and types")
                    .isEqualTo(1);
            assertThat(((ProxmoxApiBackend) backend).api().sdnVnets())
                    .as("the token sees the VNets of the zone it may audit")
                    .containsExactly(new SdnVnet("tenant1", "zone1", Optional.of(100)));

            String id = "proxmox/OnDemand/pve.small/pve2/000";
            CreatedVm c = backend.cloneAndStart(
                    new CloneSpec(id, catalog.find("pve.small").orElseThrow(), "pve2", Map.of()), forMachine(id));
            VmView v = cluster.simulator().vm((int) c.vmid()).orElseThrow();
            assertThat(v.running()).isTrue();
            assertThat(bridgeOf(v, "net0")).isEqualTo("tenant1");
            assertThat(String.valueOf(v.config().get("net1")))
                    .contains("bridge=vmbr1")
                    .contains("tag=20");
        }
    }

    @Test
    void aTokenLackingSdnUseInTheVnetsZoneStopsStartupNamingThatPath() {
        assertThat(refused(small("[{\"bridge\": \"tenant1\"}]"), p -> p.grant(ZONE1, "SDN.Audit")))
                .isEqualTo("--proxmox-token-id: the API token lacks SDN.Use on /sdn/zones/zone1/tenant1 (grant it"
                        + " to the token and its user; see Token privileges in docs/proxmox/storage.md)");
        assertThat(refused(
                        small("[{\"bridge\": \"tenant1\", \"vlan\": 7}]"),
                        p -> p.grant(ZONE1, "SDN.Audit").grant(ZONE1 + "/tenant1/8", "SDN.Use")))
                .as("a VLAN's own path")
                .isEqualTo("--proxmox-token-id: the API token lacks SDN.Use on /sdn/zones/zone1/tenant1/7 (grant it"
                        + " to the token and its user; see Token privileges in docs/proxmox/storage.md)");
        assertThat(refused(small("[{\"bridge\": \"tenant2\"}]"), p -> p.grant("/sdn/zones/zone2", "SDN.Allocate")))
                .as("a VNet the node does not list to the token is named in its zone")
                .isEqualTo("--instance-types \"pve.small\": networks[0]: node pve1 has no bridge tenant2 (it has"
                        + " vmbr0, vmbr1), or the token lacks SDN.Use on /sdn/zones/zone2/tenant2");
    }

    @Test
    void aNicOnANodesBridgeStillNeedsSdnUseInLocalnetwork() throws Exception {
        assertThat(refused(
                        small("[{\"bridge\": \"tenant1\"}, {\"bridge\": \"vmbr1\", \"vlan\": 20}]"),
                        p -> p.grant(ZONE1, "SDN.Audit", "SDN.Use")
                                .revoke("/sdn/zones/localnetwork", "SDN.Use")
                                .grant("/sdn/zones/localnetwork/vmbr0", "SDN.Use")
                                .grant("/sdn/zones/localnetwork/vmbr1", "SDN.Audit")))
                .isEqualTo("--proxmox-token-id: the API token lacks SDN.Use on /sdn/zones/localnetwork/vmbr1/20"
                        + " (grant it to the token and its user; see Token privileges in docs/proxmox/storage.md)");
        assertThat(refused(
                        small("[{\"bridge\": \"vmbr1\"}]"),
                        p -> p.grant(ZONE1, "SDN.Audit", "SDN.Use")
                                .revoke("/sdn/zones/localnetwork", "SDN.Use")
                                .grant("/sdn/zones/localnetwork/vmbr0", "SDN.Use")))
                .isEqualTo("--instance-types \"pve.small\": networks[0]: node pve1 has no bridge vmbr1 (it has"
                        + " vmbr0, tenant1), or the token lacks SDN.Use on /sdn/zones/localnetwork/vmbr1");

        try (ProxmoxBackend backend = start(small("[{\"bridge\": \"vmbr1\"}]"), p -> p)) {
            assertThat(vnetListings())
                    .as("no NIC is on a VNet: the VNets are not read")
                    .isZero();
            assertThat(backend.describeManaged()).isEmpty();
        }
    }

    @Test
    void withoutTheVnetListingEveryNicIsCheckedInLocalnetwork() throws Exception {
        InstanceTypeCatalog catalog = small("[{\"bridge\": \"tenant1\"}]");
        // SDN.Use alone does not list the VNet: its zone is unknown, so localnetwork's SDN.Use is checked
        try (ProxmoxBackend backend = start(catalog, p -> p.grant(ZONE1 + "/tenant1", "SDN.Use"))) {
            String id = "proxmox/OnDemand/pve.small/pve1/000";
            CreatedVm c = backend.cloneAndStart(
                    new CloneSpec(id, catalog.find("pve.small").orElseThrow(), "pve1", Map.of()), forMachine(id));
            assertThat(bridgeOf(cluster.simulator().vm((int) c.vmid()).orElseThrow(), "net0"))
                    .isEqualTo("tenant1");
        }
        for (int status : List.of(501, 404)) {
            try (ProxmoxBackend backend = start(
                    catalog,
                    p -> p.grant(ZONE1, "SDN.Audit", "SDN.Use"),
                    c -> c.simulator()
                            .faults()
                            .failRequests(
                                    "GET",
                                    "/cluster/sdn/vnets",
                                    1,
                                    status,
                                    "Method 'GET /cluster/sdn/vnets' not implemented"))) {
                assertThat(vnetListings()).as("asked once, answered " + status).isEqualTo(1);
                assertThat(backend.describeManaged()).isEmpty();
            }
        }
        assertThat(refused(
                        catalog,
                        p -> p.grant(ZONE1 + "/tenant1", "SDN.Use")
                                .revoke("/sdn/zones/localnetwork", "SDN.Use")
                                .grant("/sdn/zones/localnetwork/vmbr0", "SDN.Use")))
                .as("as before VNets were known")
                .isEqualTo("--proxmox-token-id: the API token lacks SDN.Use on /sdn/zones/localnetwork/tenant1 (grant"
                        + " it to the token and its user; see Token privileges in docs/proxmox/storage.md)");
    }

    @Test
    void preflightChecksTheVnetsPathInItsZone() throws Exception {
        startCluster(p -> p.grant(ZONE1, "SDN.Audit"));
        InstanceTypeCatalog catalog = small("[{\"bridge\": \"tenant1\", \"vlan\": 7}, {\"bridge\": \"vmbr1\"}]");
        PreflightReport report = new ProxmoxApiBackendFactory()
                .preflight(
                        new BackendContext(
                                "proxmox",
                                SimulatorBackends.THREE_NODES,
                                catalog,
                                SimulatorBackends.onEachNode("pve.small"),
                                BackendOptions.of(SimulatorBackends.options(cluster)),
                                new CountingRecorder()),
                        new PreflightRequest(false, List.of()));
        PreflightRow row = report.row("pve.small", "pve2").orElseThrow();
        assertThat(row.step("bridge").orElseThrow().detail())
                .isEqualTo("tenant1 (SDN VNet in zone zone1), vmbr1 bridge on pve2");
        PreflightStep privileges = row.step("privileges").orElseThrow();
        assertThat(privileges.failed()).isTrue();
        assertThat(privileges.detail())
                .isEqualTo("--proxmox-token-id: the API token lacks SDN.Use on /sdn/zones/zone1/tenant1/7 (grant them"
                        + " to the token and its user; see Token privileges in docs/proxmox/storage.md)");
        assertThat(vnetListings()).as("once for every pair").isEqualTo(1);
    }
}
