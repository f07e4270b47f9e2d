package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PCI passthrough by cluster resource mapping, as pve-manager lists mappings and qemu-server sets and
 * starts {@code hostpciN: mapping=...}: one device per running VM, a PCIe device only on q35, and
 * {@code Mapping.Use} on the mapping to set it.
 */
class PciMappingTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .template(TemplateSpec.of(9000, "pve1"))
                .pciMapping("gpu-a100", "pve1", 1)
                .pciMapping("gpu-a100", "pve2", 2)
                .token("bigfleet@pve!autoscaler=s3cret")
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
    }

    private int cloneTemplate() {
        String id = client.get("/cluster/nextid").data().asText();
        TestClient.Resp r = client.post("/nodes/pve1/qemu/9000/clone", "newid", id, "full", "1");
        assertThat(client.awaitTask(r.data().asText()).get("exitstatus").asText())
                .isEqualTo("OK");
        return Integer.parseInt(id);
    }

    private JsonNode start(int vmid) {
        TestClient.Resp r = client.post("/nodes/pve1/qemu/" + vmid + "/status/start");
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        return client.awaitTask(r.data().asText());
    }

    @Test
    void mappingsAreListedWithADevicePerNodeEntry() {
        JsonNode list = client.get("/cluster/mapping/pci").data();
        assertThat(list).hasSize(1);
        assertThat(list.get(0).get("id").asText()).isEqualTo("gpu-a100");
        assertThat(list.get(0).get("map")).hasSize(3);
        assertThat(list.get(0).get("map"))
                .extracting(JsonNode::asText)
                .filteredOn(d -> d.contains("node=pve1"))
                .singleElement()
                .satisfies(d -> assertThat(d).contains("path=0000:"));
    }

    @Test
    void aMappedDeviceIsUsedByOneRunningVmAtATime() {
        int first = cloneTemplate();
        int second = cloneTemplate();
        for (int vm : new int[] {first, second}) {
            TestClient.Resp set = client.put(
                    "/nodes/pve1/qemu/" + vm + "/config", "hostpci0", "mapping=gpu-a100,pcie=1", "machine", "q35");
            assertThat(set.status()).as(set.text()).isEqualTo(200);
        }
        assertThat(start(first).get("exitstatus").asText()).isEqualTo("OK");
        assertThat(start(second).get("exitstatus").asText()).isEqualTo("could not find a free device for 'hostpci0'");
    }

    @Test
    void aPcieDeviceNeedsQ35AndAHostAddressIsForRootOnly() {
        int vm = cloneTemplate();
        client.put("/nodes/pve1/qemu/" + vm + "/config", "hostpci0", "mapping=gpu-a100,pcie=1");
        assertThat(start(vm).get("exitstatus").asText()).isEqualTo("q35 machine model is not enabled");

        TestClient.Resp host = client.put("/nodes/pve1/qemu/" + vm + "/config", "hostpci1", "0000:41:00.0");
        assertThat(host.status()).isEqualTo(500);
        assertThat(host.message()).contains("only root can set 'hostpci1' config for non-mapped devices");
    }

    @Test
    void aMappingWithNoDeviceOnTheVmsNodeIsNotFoundAtStart() {
        int vm = cloneTemplate();
        client.put("/nodes/pve1/qemu/" + vm + "/config", "hostpci0", "mapping=other-gpu");
        assertThat(start(vm).get("exitstatus").asText()).isEqualTo("PCI device mapping not found for 'other-gpu'");
    }
}
