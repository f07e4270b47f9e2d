package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.TokenPrivileges;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An instance type's {@code networks}: each entry becomes the clone's NIC of its index, read back
 * through the API as Proxmox stored it (each with a fresh MAC), and the VM starts on them; a NIC on
 * a bridge a node lacks, a key only virtio NICs take on another model, or a bridge the token may not
 * use stops startup naming the entry.
 */
class NetworksOnSimulatorTest {
    private static final String TAGS = "[\"bigfleet-template\"]";
    private static final String THREE_NICS = "[{\"bridge\": \"vmbr1\", \"vlan\": 20, \"mtu\": 9000, \"queues\": 4,"
            + " \"firewall\": true}, {\"bridge\": \"vmbr2\", \"model\": \"e1000\", \"firewall\": false},"
            + " {\"bridge\": \"vmbr0\", \"mtu\": 1}]";

    private TestingProxmoxCluster cluster;

    @AfterEach
    void stop() {
        if (cluster != null) {
            cluster.close();
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

    private ProxmoxBackend start(InstanceTypeCatalog catalog, UnaryOperator<TokenPrivileges> privileges)
            throws Exception {
        TokenPrivileges p = TokenPrivileges.poolScoped(POOL);
        for (int t = 9001; t <= 9003; t++) {
            p.grant("/vms/" + t, "VM.Audit", "VM.Clone");
        }
        cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .nodes(SimulatorBackends.THREE_NODES.stream()
                        .map(n -> NodeSpec.of(n)
                                .withBridges("vmbr0", "vmbr1", "vmbr2")
                                .withBridgeMtu("vmbr1", 9000))
                        .toList())
                .pool(POOL)
                .customize(b -> b.poolScopedToken(POOL).tokenPrivileges(privileges.apply(p)))
                .start();
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                SimulatorBackends.THREE_NODES,
                catalog,
                SimulatorBackends.onEachNode("pve.small"),
                Map.of(),
                new CountingRecorder());
    }

    /** A NIC entry as Proxmox stores it: model to MAC, then each option. */
    private static Map<String, String> nic(Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String part : String.valueOf(value).split(",", -1)) {
            int eq = part.indexOf('=');
            out.put(part.substring(0, eq), part.substring(eq + 1));
        }
        return out;
    }

    @Test
    void eachEntryBecomesTheNicOfItsIndexAndTheVmStartsOnThem() throws Exception {
        InstanceTypeCatalog catalog = small(THREE_NICS);
        try (ProxmoxBackend backend = start(catalog, p -> p)) {
            String id = "proxmox/OnDemand/pve.small/pve2/000";
            CreatedVm c = backend.cloneAndStart(
                    new CloneSpec(id, catalog.find("pve.small").orElseThrow(), "pve2", Map.of()), forMachine(id));
            VmView v = cluster.simulator().vm((int) c.vmid()).orElseThrow();
            assertThat(v.running()).isTrue();

            Map<String, String> net0 = nic(v.config().get("net0"));
            assertThat(net0.keySet()).containsExactly("virtio", "bridge", "firewall", "mtu", "queues", "tag");
            assertThat(net0)
                    .containsEntry("bridge", "vmbr1")
                    .containsEntry("tag", "20")
                    .containsEntry("mtu", "9000")
                    .containsEntry("queues", "4")
                    .containsEntry("firewall", "1");
            Map<String, String> net1 = nic(v.config().get("net1"));
            assertThat(net1.keySet()).containsExactly("e1000", "bridge", "firewall");
            assertThat(net1).containsEntry("bridge", "vmbr2").containsEntry("firewall", "0");
            Map<String, String> net2 = nic(v.config().get("net2"));
            assertThat(net2.keySet()).containsExactly("virtio", "bridge", "mtu");
            assertThat(net2).containsEntry("bridge", "vmbr0").containsEntry("mtu", "1");
            assertThat(v.config()).doesNotContainKey("net3");

            String templateMac = nic(cluster.simulator()
                            .vm(9002)
                            .orElseThrow()
                            .config()
                            .get("net0"))
                    .get("virtio");
            assertThat(List.of(net0.get("virtio"), net1.get("e1000"), net2.get("virtio")))
                    .as("every NIC has a MAC of its own")
                    .doesNotHaveDuplicates()
                    .doesNotContain(templateMac)
                    .allMatch(mac -> mac.matches("[0-9A-F:]{17}"));
        }
    }

    @Test
    void aNicTheClusterCannotServeStopsStartupNamingTheEntry() {
        assertThat(refused(small("[{\"bridge\": \"vmbr1\"}, {\"bridge\": \"vmbr9\"}]"), p -> p))
                .isEqualTo("--instance-types \"pve.small\": networks[1]: node pve1 has no bridge vmbr9 (it has"
                        + " vmbr0, vmbr1, vmbr2), or the token lacks SDN.Use on /sdn/zones/localnetwork/vmbr9");
        assertThat(refused(small("[{\"bridge\": \"vmbr1\", \"model\": \"e1000\", \"queues\": 2}]"), p -> p))
                .isEqualTo("--instance-types \"pve.small\": networks[0]: queues is for virtio NICs only (model"
                        + " \"e1000\")");
        assertThat(refused(
                        small(THREE_NICS),
                        p -> p.revoke("/sdn/zones/localnetwork", "SDN.Use")
                                .grant("/sdn/zones/localnetwork/vmbr0", "SDN.Use")
                                .grant("/sdn/zones/localnetwork/vmbr1", "SDN.Use")))
                .as("Proxmox lists only the bridges the token may use")
                .isEqualTo("--instance-types \"pve.small\": networks[1]: node pve1 has no bridge vmbr2 (it has"
                        + " vmbr0, vmbr1), or the token lacks SDN.Use on /sdn/zones/localnetwork/vmbr2");
    }

    @Test
    void badEntriesNameTheTypeTheEntryAndTheKey() {
        assertThat(refused(small("[]"), p -> p))
                .startsWith("--instance-types \"pve.small\": networks must be a list of 1 to 32 NICs");
        assertThat(refused(small("[{\"vlan\": 20}]"), p -> p))
                .isEqualTo("--instance-types \"pve.small\": networks[0]: bridge is missing (e.g. \"vmbr0\")");
        assertThat(refused(small("[{\"bridge\": \"vmbr0\", \"mtu\": 9000}]"), p -> p))
                .isEqualTo(
                        "--instance-types \"pve.small\": networks[0]: mtu 9000 is bigger than the MTU of bridge vmbr0"
                                + " on node pve1 (1500); Proxmox would not start the VM: lower it, or give 1 for the bridge's");
        assertThat(refused(small("[{\"bridge\": \"vmbr0\", \"speed\": 10}]"), p -> p))
                .isEqualTo("--instance-types \"pve.small\": networks[0]: unknown key \"speed\" (bridge, vlan, mtu,"
                        + " queues, firewall, model, addresses)");
        assertThat(refused(small("[{\"bridge\": \"vmbr0\"}, {\"bridge\": \"vmbr1\", \"mtu\": 100}]"), p -> p))
                .isEqualTo("--instance-types \"pve.small\": networks[1]: mtu must be 1 (the bridge's) or from 576 to"
                        + " 65520, got 100");
        assertThat(refused(
                        SimulatorBackends.catalog(SimulatorBackends.type(
                                "pve.small",
                                Map.of(
                                        "template_tags", TAGS,
                                        "bridge", "\"vmbr0\"",
                                        "networks", "[{\"bridge\": \"vmbr1\"}]"))),
                        p -> p))
                .startsWith("--instance-types \"pve.small\": networks and bridge both set the first NIC");
    }

    private String refused(InstanceTypeCatalog catalog, UnaryOperator<TokenPrivileges> privileges) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
        return SimulatorBackends.refusal(() -> start(catalog, privileges));
    }
}
