package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * SDN VNets as pve-network lists them and as qemu-server checks a NIC on one: {@code SDN.Audit} or
 * {@code SDN.Allocate} to see a VNet in {@code /cluster/sdn/vnets}, {@code SDN.Audit} or {@code
 * SDN.Use} to find it among a node's bridges, {@code SDN.Use} on {@code /sdn/zones/<zone>/<vnet>}
 * (or its VLAN) to put a NIC on it.
 */
class VnetTest {
    private static PveSimulator start(UnaryOperator<TokenPrivileges> privileges) throws Exception {
        return start("vmbr0", privileges);
    }

    /** A template whose NIC is on {@code bridge}, and the VNets tenant1, tenant2 (zone evpn1) and dmz. */
    private static PveSimulator start(String bridge, UnaryOperator<TokenPrivileges> privileges) throws Exception {
        return PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm").withBridge(bridge))
                .vnet(VnetSpec.of("tenant1", "evpn1").withTag(10001).withAlias("Tenant one"))
                .vnet(VnetSpec.of("tenant2", "evpn1").withTag(10002))
                .vnet(VnetSpec.of("dmz", "vlanz").withTag(30))
                .token("bigfleet@pve!autoscaler=s3cret")
                .tokenPrivileges(privileges.apply(
                        TokenPrivileges.poolScoped("bigfleet").grant("/vms/9000", "VM.Audit", "VM.Clone")))
                .build());
    }

    @Test
    void vnetsAreListedToWhoMayAuditOrAllocateThemInTheirZone() throws Exception {
        try (PveSimulator sim =
                start(p -> p.grant("/sdn/zones/evpn1", "SDN.Audit").grant("/sdn/zones/vlanz/dmz", "SDN.Use"))) {
            TestClient client = TestClient.of(sim);
            JsonNode list = client.get("/cluster/sdn/vnets").data();
            assertThat(list)
                    .as("SDN.Use alone does not list a VNet")
                    .extracting(v -> v.get("vnet").asText())
                    .containsExactly("tenant1", "tenant2");
            JsonNode tenant1 = list.get(0);
            assertThat(tenant1.get("zone").asText()).isEqualTo("evpn1");
            assertThat(tenant1.get("tag").asInt()).isEqualTo(10001);
            assertThat(tenant1.get("alias").asText()).isEqualTo("Tenant one");
            assertThat(tenant1.get("type").asText()).isEqualTo("vnet");
            assertThat(tenant1.get("digest").asText()).matches("[0-9a-f]{40}");

            assertThat(client.get("/cluster/sdn/vnets/tenant2")
                            .data()
                            .get("tag")
                            .asInt())
                    .isEqualTo(10002);
            TestClient.Resp dmz = client.get("/cluster/sdn/vnets/dmz");
            assertThat(dmz.status()).isEqualTo(403);
            assertThat(dmz.message())
                    .isEqualTo("Permission check failed (/sdn/zones/vlanz/dmz, SDN.Audit|SDN.Allocate)\n");
            TestClient.Resp missing = client.get("/cluster/sdn/vnets/nosuch");
            assertThat(missing.status()).isEqualTo(500);
            assertThat(missing.message()).isEqualTo("sdn vnet 'nosuch' does not exist\n");
        }
    }

    @Test
    void aNodesBridgesIncludeTheVnetsTheTokenMayAuditOrUse() throws Exception {
        try (PveSimulator sim = start(
                p -> p.grant("/sdn/zones/evpn1/tenant1", "SDN.Use").grant("/sdn/zones/vlanz/dmz/30", "SDN.Audit"))) {
            TestClient client = TestClient.of(sim);
            JsonNode bridges = client.get("/nodes/pve1/network?type=any_bridge").data();
            assertThat(bridges)
                    .as("a VNet whose VLAN alone is granted is listed too")
                    .extracting(i -> i.get("iface").asText())
                    .containsExactlyInAnyOrder("vmbr0", "tenant1", "dmz");
            assertThat(bridges)
                    .filteredOn(i -> i.get("iface").asText().equals("tenant1"))
                    .singleElement()
                    .satisfies(i -> {
                        assertThat(i.get("type").asText()).isEqualTo("vnet");
                        assertThat(i.get("comments").asText()).isEqualTo("Tenant one");
                    });
            assertThat(client.get("/nodes/pve1/network?type=bridge").data())
                    .extracting(i -> i.get("iface").asText())
                    .containsExactly("vmbr0");
            assertThat(client.get("/nodes/pve1/network?type=vnet").data())
                    .extracting(i -> i.get("iface").asText())
                    .containsExactlyInAnyOrder("tenant1", "dmz");
        }
    }

    @Test
    void aNicOnAVnetNeedsSdnUseInTheVnetsZone() throws Exception {
        try (PveSimulator sim = start(p -> p.grant("/sdn/zones/evpn1/tenant1", "SDN.Use"))) {
            TestClient client = TestClient.of(sim);
            assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet")))
                    .isEqualTo("OK");
            String config = "/nodes/pve1/qemu/150/config";

            TestClient.Resp tenant2 = client.put(config, "net0", "virtio,bridge=tenant2");
            assertThat(tenant2.status()).isEqualTo(403);
            assertThat(tenant2.message())
                    .as("a VNet is in its own zone, not in localnetwork")
                    .isEqualTo("Permission check failed (/sdn/zones/evpn1/tenant2, SDN.Use)\n");
            TestClient.Resp tagged = client.put(config, "net0", "virtio,bridge=dmz,tag=7");
            assertThat(tagged.message()).isEqualTo("Permission check failed (/sdn/zones/vlanz/dmz/7, SDN.Use)\n");

            assertThat(client.put(config, "net0", "virtio,bridge=tenant1").status())
                    .isEqualTo(200);
            assertThat(client.run(client.post("/nodes/pve1/qemu/150/status/start")))
                    .as("the VNet is a bridge of the node")
                    .isEqualTo("OK");
            assertThat(client.run(client.post("/nodes/pve1/qemu/150/status/stop")))
                    .isEqualTo("OK");
        }
        try (PveSimulator sim = start("tenant1", p -> p)) {
            TestClient client = TestClient.of(sim);
            TestClient.Resp clone = client.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet");
            assertThat(clone.status()).isEqualTo(403);
            assertThat(clone.message())
                    .as("a clone of a template on a VNet")
                    .isEqualTo("Permission check failed (/sdn/zones/evpn1/tenant1, SDN.Use)\n");
        }
    }
}
