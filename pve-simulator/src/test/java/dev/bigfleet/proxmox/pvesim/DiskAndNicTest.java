package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A clone's shape: disk resize tasks, NICs on bridges, CPU models, and the options' schemas. */
class DiskAndNicTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .node(NodeSpec.of("pve1").withBridges("vmbr0", "vmbr1").withBridgeMtu("vmbr1", 9000))
                .node(NodeSpec.of("pve2"))
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm").withCloudInit())
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private int cloned() {
        String id = client.get("/cluster/nextid").data().asText();
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id, "full", "1")))
                .isEqualTo("OK");
        return Integer.parseInt(id);
    }

    @Test
    void aResizeIsATaskThatOnlyGrows() {
        int vmid = cloned();
        String vm = "/nodes/pve1/qemu/" + vmid;
        TestClient.Resp grow = client.put(vm + "/resize", "disk", "scsi0", "size", "48G");
        assertThat(grow.data().asText()).contains(":resize:" + vmid + ":");
        assertThat(client.awaitTask(grow.data().asText()).get("exitstatus").asText())
                .isEqualTo("OK");
        assertThat(sim.vm(vmid).orElseThrow().config().get("scsi0"))
                .isEqualTo("local-lvm:vm-" + vmid + "-disk-0,size=48G");
        assertThat(client.run(client.put(vm + "/resize", "disk", "scsi0", "size", "+16G")))
                .isEqualTo("OK");
        assertThat(sim.vm(vmid).orElseThrow().config().get("scsi0")).asString().endsWith(",size=64G");

        assertThat(client.run(client.put(vm + "/resize", "disk", "scsi0", "size", "32G")))
                .isEqualTo("shrinking disks is not supported");
        assertThat(client.run(client.put(vm + "/resize", "disk", "ide2", "size", "1G")))
                .isEqualTo("you can't resize a cdrom");
        assertThat(client.run(client.put(vm + "/resize", "disk", "scsi5", "size", "1G")))
                .isEqualTo("disk 'scsi5' does not exist");
        TestClient.Resp bad = client.put(vm + "/resize", "disk", "sda", "size", "1X");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.error("size")).isEqualTo("value does not match the regex pattern");
        assertThat(bad.error("disk")).startsWith("value 'sda' does not have a value in the enumeration 'ide0, ide1,");
    }

    @Test
    void aVirtioNicWithAnMtuAboveItsBridgesFailsTheStart() {
        int vmid = cloned();
        String vm = "/nodes/pve1/qemu/" + vmid;
        assertThat(client.put(vm + "/config", "net0", "virtio,bridge=vmbr0,mtu=9000")
                        .status())
                .isEqualTo(200);
        assertThat(client.run(client.post(vm + "/status/start")))
                .isEqualTo("netdev net0: MTU '9000' is bigger than the bridge MTU '1500' - adjust the MTU for the"
                        + " network device in the VM configuration, while ensuring that the bridge is configured as"
                        + " desired.");
        assertThat(client.put(vm + "/config", "net0", "virtio,bridge=vmbr1,mtu=9000")
                        .status())
                .isEqualTo(200);
        assertThat(client.run(client.post(vm + "/status/start")))
                .as("vmbr1 is configured with MTU 9000")
                .isEqualTo("OK");
    }

    @Test
    void nicsAreCheckedAsPropertyStringsAndGetAMacWhenTheyHaveNone() {
        int vmid = cloned();
        String config = "/nodes/pve1/qemu/" + vmid + "/config";
        assertThat(client.put(config, "net0", "virtio,bridge=vmbr1,tag=20,firewall=1")
                        .status())
                .isEqualTo(200);
        String net0 = sim.vm(vmid).orElseThrow().config().get("net0").toString();
        assertThat(net0).matches("virtio=BC:24:11:[0-9A-F:]{8},bridge=vmbr1,firewall=1,tag=20");

        TestClient.Resp badTag = client.put(config, "net0", "virtio,bridge=vmbr1,tag=5000");
        assertThat(badTag.error("net0"))
                .isEqualTo("invalid format - format error\ntag: value must have a maximum value of 4094");
        assertThat(client.put(config, "net0", "virtio,bridge=vm br").error("net0"))
                .isEqualTo("invalid format - format error\nbridge: invalid format - invalid bridge ID 'vm br'");
        assertThat(client.put(config, "net0", "bridge=vmbr0").error("net0"))
                .isEqualTo("invalid format - format error\nmodel: property is missing and it is not optional");
        assertThat(client.put(config, "net0", "virtio,speed=10").error("net0"))
                .isEqualTo("invalid format - invalid key in comma-separated list property: speed");
        assertThat(client.put(config, "agent", "1,fstrim=1").error("agent"))
                .isEqualTo("invalid format - invalid key in comma-separated list property: fstrim");
        assertThat(client.put(config, "agent", "fstrim_cloned_disks=1").error("agent"))
                .isEqualTo("invalid format - format error\nenabled: property is missing and it is not optional");
        assertThat(client.put(config, "agent", "enabled=1,fstrim_cloned_disks=1")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aBridgeTheNodeLacksFailsTheStart() {
        int vmid = cloned();
        String vm = "/nodes/pve1/qemu/" + vmid;
        assertThat(client.put(vm + "/config", "net0", "virtio,bridge=vmbr7").status())
                .isEqualTo(200);
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("bridge 'vmbr7' does not exist");
        assertThat(client.put(vm + "/config", "net0", "virtio,bridge=vmbr1").status())
                .isEqualTo(200);
        assertThat(client.run(client.post(vm + "/status/start"))).isEqualTo("OK");
        client.run(client.post(vm + "/status/stop"));
    }

    @Test
    void nodesListTheirBridgesAndCpuModels() {
        List<String> pve1 = new ArrayList<>();
        for (JsonNode i : client.get("/nodes/pve1/network?type=any_bridge").data()) {
            pve1.add(i.get("iface").asText());
        }
        assertThat(pve1).containsExactly("vmbr0", "vmbr1");
        assertThat(client.get("/nodes/pve2/network?type=any_bridge").text()).doesNotContain("vmbr1");
        List<String> models = new ArrayList<>();
        for (JsonNode m : client.get("/nodes/pve1/capabilities/qemu/cpu").data()) {
            models.add(m.get("name").asText());
        }
        assertThat(models).contains("host", "x86-64-v2-AES", "EPYC-Milan", "kvm64");
    }

    @Test
    void cpuTypesMustExistAndParametersFollowTheSchema() {
        int vmid = cloned();
        String config = "/nodes/pve1/qemu/" + vmid + "/config";
        assertThat(client.put(config, "cpu", "x86-64-v2-AES").status()).isEqualTo(200);
        assertThat(sim.vm(vmid).orElseThrow().config()).containsEntry("cpu", "x86-64-v2-AES");
        assertThat(client.put(config, "cpu", "cputype=host,flags=+aes").status())
                .isEqualTo(200);
        assertThat(client.put(config, "cpu", "zen9").error("cpu"))
                .isEqualTo("invalid format - Built-in cputype 'zen9' is not defined (missing 'custom-' prefix?)");

        TestClient.Resp clone = client.post(
                "/nodes/pve1/qemu/9000/clone", "newid", "777", "pool", "big fleet", "storage", "1x", "target", "pve_2");
        assertThat(clone.status()).isEqualTo(400);
        assertThat(clone.error("pool")).isEqualTo("invalid format - pool name 'big fleet' contains invalid characters");
        assertThat(clone.error("storage")).isEqualTo("invalid format - storage ID '1x' contains illegal characters");
        assertThat(clone.error("target")).isEqualTo("invalid format - value does not look like a valid node name");
        assertThat(client.post("/nodes/pve1/qemu/9000/clone", "newid", "777", "storage", "local")
                        .error("storage"))
                .isEqualTo("storage 'local' does not support vm images");
    }
}
