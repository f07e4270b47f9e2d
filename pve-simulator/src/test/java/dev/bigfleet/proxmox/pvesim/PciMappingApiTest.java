package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PCI resource mappings as cluster state an administrator changes through pve-manager's {@code
 * /cluster/mapping/pci}: created, read, updated (with {@code delete} and {@code digest}) and deleted,
 * refused with Proxmox's words and privileges, and seen by the next VM start.
 */
class PciMappingApiTest {
    private static final String L4_PVE1 =
            "node=pve1,path=0000:81:00.0,id=10de:27b8,iommugroup=60,subsystem-id=10de:16ca";
    private static final String L4_PVE2 =
            "node=pve2,path=0000:82:00.0,id=10de:27b8,iommugroup=61,subsystem-id=10de:16ca";

    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .template(TemplateSpec.of(9000, "pve1"))
                .pciMapping("gpu-a100", "pve1", 1)
                .token("root@pam!admin=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @AfterEach
    void cleanUp() {
        for (VmView vm : sim.vms()) {
            if (!vm.template()) {
                sim.faults().destroyVm(vm.vmid());
            }
        }
        client.delete("/cluster/mapping/pci/gpu-l4");
        sim.faults().quorum(true);
    }

    private static void ok(TestClient.Resp r) {
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        assertThat(r.data().isNull()).as("the call returns nothing").isTrue();
    }

    @Test
    void aMappingIsCreatedReadUpdatedAndDeleted() {
        ok(client.post(
                "/cluster/mapping/pci",
                "id",
                "gpu-l4",
                "map",
                L4_PVE1,
                "map",
                L4_PVE2,
                "description",
                "Nvidia L4, one per node"));

        JsonNode read = client.get("/cluster/mapping/pci/gpu-l4").data();
        assertThat(read.get("map")).extracting(JsonNode::asText).containsExactly(L4_PVE1, L4_PVE2);
        assertThat(read.get("description").asText()).isEqualTo("Nvidia L4, one per node");
        assertThat(read.get("type").asText()).isEqualTo("pci");
        assertThat(read.has("mdev")).as("unset flags are absent").isFalse();
        String digest = read.get("digest").asText();
        assertThat(digest).matches("[0-9a-f]{40}");
        assertThat(client.get("/cluster/mapping/pci").data())
                .filteredOn(m -> m.get("id").asText().equals("gpu-l4"))
                .singleElement()
                .satisfies(m -> assertThat(m.get("digest").asText()).isEqualTo(digest));

        ok(client.put("/cluster/mapping/pci/gpu-l4", "map", L4_PVE1, "mdev", "1", "digest", digest));
        JsonNode updated = client.get("/cluster/mapping/pci/gpu-l4").data();
        assertThat(updated.get("map")).extracting(JsonNode::asText).containsExactly(L4_PVE1);
        assertThat(updated.get("mdev").asInt()).isEqualTo(1);
        assertThat(updated.get("description").asText())
                .as("what the update leaves out stays")
                .isNotEmpty();
        assertThat(updated.get("digest").asText())
                .as("every write changes the file")
                .isNotEqualTo(digest);

        TestClient.Resp stale = client.put("/cluster/mapping/pci/gpu-l4", "map", L4_PVE1, "digest", digest);
        assertThat(stale.status()).isEqualTo(500);
        assertThat(stale.message())
                .isEqualTo("update hardware mapping failed: detected modified configuration - file changed by"
                        + " other user? Try again.\n");

        ok(client.put("/cluster/mapping/pci/gpu-l4", "map", L4_PVE1, "delete", "description,mdev"));
        JsonNode trimmed = client.get("/cluster/mapping/pci/gpu-l4").data();
        assertThat(trimmed.has("description")).isFalse();
        assertThat(trimmed.has("mdev")).isFalse();

        ok(client.delete("/cluster/mapping/pci/gpu-l4"));
        TestClient.Resp gone = client.get("/cluster/mapping/pci/gpu-l4");
        assertThat(gone.status()).isEqualTo(500);
        assertThat(gone.message()).isEqualTo("mapping 'gpu-l4' not found\n");
        assertThat(client.get("/cluster/mapping/pci").data())
                .extracting(m -> m.get("id").asText())
                .containsExactly("gpu-a100");
        ok(client.delete("/cluster/mapping/pci/gpu-l4"));
    }

    @Test
    void mistakesAreRefusedWithProxmoxsWords() {
        TestClient.Resp duplicate = client.post("/cluster/mapping/pci", "id", "gpu-a100", "map", L4_PVE1);
        assertThat(duplicate.status()).isEqualTo(500);
        assertThat(duplicate.message())
                .isEqualTo("create hardware mapping failed: pci ID 'gpu-a100' already defined\n");

        TestClient.Resp noPath = client.post("/cluster/mapping/pci", "id", "gpu-l4", "map", "node=pve1,id=10de:27b8");
        assertThat(noPath.status()).isEqualTo(400);
        assertThat(noPath.error("map[0]"))
                .isEqualTo("invalid format - format error\nmap[0].path: property is missing and it is not optional\n");
        TestClient.Resp noMap = client.post("/cluster/mapping/pci", "id", "gpu-l4");
        assertThat(noMap.error("map")).isEqualTo("property is missing and it is not optional");

        TestClient.Resp unknown = client.put("/cluster/mapping/pci/gpu-l4", "map", L4_PVE1);
        assertThat(unknown.message()).isEqualTo("update hardware mapping failed: pci ID 'gpu-l4' does not exist\n");
        TestClient.Resp withoutMap = client.put("/cluster/mapping/pci/gpu-a100", "description", "x");
        assertThat(withoutMap.message())
                .as("an update names the whole map again, as the web interface sends it")
                .isEqualTo("update hardware mapping failed: missing value for required option 'map'\n");
        TestClient.Resp deleteMap = client.put("/cluster/mapping/pci/gpu-a100", "map", L4_PVE1, "delete", "map");
        assertThat(deleteMap.message())
                .isEqualTo("update hardware mapping failed: unable to delete required option 'map'\n");

        sim.faults().quorum(false);
        TestClient.Resp noQuorum = client.post("/cluster/mapping/pci", "id", "gpu-l4", "map", L4_PVE1);
        assertThat(noQuorum.message())
                .isEqualTo("create hardware mapping failed: cfs-lock 'file-mapping_pci_cfg' error: no quorum!\n");
    }

    @Test
    void aVmStartSeesTheMappingsAsTheyAreNow() {
        String id = client.get("/cluster/nextid").data().asText();
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id, "full", "1")))
                .isEqualTo("OK");
        String vm = "/nodes/pve1/qemu/" + id;
        assertThat(client.put(vm + "/config", "hostpci0", "mapping=gpu-l4").status())
                .isEqualTo(200);
        assertThat(client.run(client.post(vm + "/status/start")))
                .as("not created yet")
                .isEqualTo("PCI device mapping not found for 'gpu-l4'");

        ok(client.post("/cluster/mapping/pci", "id", "gpu-l4", "map", L4_PVE1));
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        assertThat(client.run(client.post(vm + "/status/stop"))).isEqualTo("OK");

        ok(client.put("/cluster/mapping/pci/gpu-l4", "map", L4_PVE2));
        assertThat(client.run(client.post(vm + "/status/start")))
                .as("its only device is now on pve2")
                .isEqualTo("PCI device mapping not found for 'gpu-l4'");

        ok(client.put("/cluster/mapping/pci/gpu-l4", "map", L4_PVE1));
        ok(client.delete("/cluster/mapping/pci/gpu-l4"));
        assertThat(client.run(client.post(vm + "/status/start")))
                .as("deleted")
                .isEqualTo("PCI device mapping not found for 'gpu-l4'");
    }

    @Test
    void creatingAndDeletingNeedMappingModifyOnAllMappingsUpdatingOnTheMappingItself() throws Exception {
        try (PveSimulator limited = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .pciMapping("gpu-a100", "pve1", 1)
                .pciMapping("gpu-h100", "pve1", 1)
                .token("bigfleet@pve!autoscaler=s3cret")
                .tokenPrivileges(TokenPrivileges.none().grant("/mapping/pci/gpu-a100", "Mapping.Use", "Mapping.Modify"))
                .build())) {
            TestClient token = TestClient.of(limited);
            TestClient.Resp create = token.post("/cluster/mapping/pci", "id", "gpu-l4", "map", L4_PVE1);
            assertThat(create.status()).isEqualTo(403);
            assertThat(create.message()).isEqualTo("Permission check failed (/mapping/pci, Mapping.Modify)\n");
            TestClient.Resp delete = token.delete("/cluster/mapping/pci/gpu-a100");
            assertThat(delete.status()).isEqualTo(403);
            assertThat(delete.message())
                    .as("deleting checks /mapping/pci, not the mapping")
                    .isEqualTo("Permission check failed (/mapping/pci, Mapping.Modify)\n");
            TestClient.Resp otherUpdate = token.put("/cluster/mapping/pci/gpu-h100", "map", L4_PVE1);
            assertThat(otherUpdate.status()).isEqualTo(403);
            assertThat(otherUpdate.message())
                    .isEqualTo("Permission check failed (/mapping/pci/gpu-h100, Mapping.Modify)\n");
            TestClient.Resp otherRead = token.get("/cluster/mapping/pci/gpu-h100");
            assertThat(otherRead.status()).isEqualTo(403);
            assertThat(otherRead.message()).isEqualTo("Permission check failed\n");
            assertThat(token.get("/cluster/mapping/pci").data())
                    .extracting(m -> m.get("id").asText())
                    .containsExactly("gpu-a100");

            ok(token.put("/cluster/mapping/pci/gpu-a100", "map", L4_PVE1));
            assertThat(token.get("/cluster/mapping/pci/gpu-a100")
                            .data()
                            .get("map")
                            .get(0)
                            .asText())
                    .isEqualTo(L4_PVE1);
        }
    }
}
