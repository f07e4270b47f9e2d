package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** GET and PUT/POST config: types, tags, locks, digests, pending changes. */
class ConfigTest {
    static PveSimulator sim;
    static TestClient client;
    static int nextId = 200;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private int cloneVm() {
        int id = nextId++;
        assertThat(client.run(
                        client.post("/nodes/pve1/qemu/9000/clone", "newid", Integer.toString(id), "name", "vm" + id)))
                .isEqualTo("OK");
        return id;
    }

    @Test
    void getConfigHasProxmoxTypes() {
        JsonNode c = client.get("/nodes/pve1/qemu/9000/config").data();
        assertThat(c.get("memory").isTextual()).isTrue();
        assertThat(c.get("memory").asText()).isEqualTo("2048");
        assertThat(c.get("cores").isInt()).isTrue();
        assertThat(c.get("template").asInt()).isEqualTo(1);
        assertThat(c.get("agent").asText()).isEqualTo("1");
        assertThat(c.get("digest").asText()).matches("[0-9a-f]{40}");
    }

    @Test
    void putAppliesAtOnceAndNormalisesTags() {
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id + "/config";
        TestClient.Resp r = client.put(
                path,
                "cores",
                "4",
                "memory",
                "4096",
                "tags",
                "BigFleet,bigfleet-x y;bigfleet",
                "description",
                "machine_id=a/b operation_id=1\n\n",
                "agent",
                "enabled=1");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.data().isNull()).isTrue();
        JsonNode c = client.get(path).data();
        assertThat(c.get("cores").asInt()).isEqualTo(4);
        assertThat(c.get("memory").asText()).isEqualTo("4096");
        assertThat(c.get("tags").asText()).isEqualTo("bigfleet;bigfleet-x;y");
        assertThat(c.get("description").asText()).isEqualTo("machine_id=a/b operation_id=1");
        assertThat(sim.vm(id).orElseThrow().tags()).containsExactly("bigfleet", "bigfleet-x", "y");
    }

    @Test
    void invalidValuesAre400() {
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id + "/config";
        assertThat(client.put(path, "tags", "ok;bad!tag").error("tags"))
                .isEqualTo("invalid format - invalid characters in tag");
        assertThat(client.put(path, "cores", "0").error("cores")).isEqualTo("value must have a minimum value of 1");
        assertThat(client.put(path, "memory", "8").status()).isEqualTo(400);
        assertThat(client.put(path, "description", "x".repeat(8193)).error("description"))
                .isEqualTo("value may only be 8192 characters long");
        assertThat(client.put(path, "background_delay", "5").error("background_delay"))
                .contains("not defined in schema");
        // qemu-server 9: a config digest is a SHA-1 in hex, and longer ones are refused
        assertThat(client.put(path, "cores", "2", "digest", "a".repeat(41)).error("digest"))
                .isEqualTo("value may only be 40 characters long");
        assertThat(client.put(path, "numa", "2").error("numa")).isNotEmpty();
        assertThat(client.put(path, "numa", "1").status()).isEqualTo(200);
    }

    @Test
    void noOptionsAndDigestMismatchAre500() {
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id + "/config";
        assertThat(client.put(path).message()).isEqualTo("no options specified\n");
        String digest = client.get(path).data().get("digest").asText();
        assertThat(client.put(path, "cores", "3", "digest", digest).status()).isEqualTo(200);
        TestClient.Resp stale = client.put(path, "cores", "5", "digest", digest);
        assertThat(stale.status()).isEqualTo(500);
        assertThat(stale.message()).isEqualTo("checksum mismatch (file change by other user?)\n");
    }

    @Test
    void postReturnsAConfigTask() {
        int id = cloneVm();
        TestClient.Resp r = client.post("/nodes/pve1/qemu/" + id + "/config", "name", "renamed");
        assertThat(r.data().asText()).contains(":qmconfig:" + id + ":");
        assertThat(client.run(r)).isEqualTo("OK");
        assertThat(sim.vm(id).orElseThrow().name()).isEqualTo("renamed");
    }

    @Test
    void deleteRemovesOptions() {
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id + "/config";
        assertThat(client.put(path, "delete", "tags,description").status()).isEqualTo(200);
        JsonNode c = client.get(path).data();
        assertThat(c.has("tags")).isFalse();
    }

    @Test
    void sizeChangesOnARunningVmStayPendingUntilStop() {
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id;
        client.run(client.post(path + "/status/start"));
        assertThat(client.put(path + "/config", "memory", "8192", "name", "live")
                        .status())
                .isEqualTo(200);
        assertThat(client.get(path + "/config").data().get("memory").asText()).isEqualTo("8192");
        assertThat(client.get(path + "/config?current=1").data().get("memory").asText())
                .isEqualTo("2048");
        assertThat(client.get(path + "/config?current=1").data().get("name").asText())
                .isEqualTo("live");
        assertThat(sim.nodeMemoryUsed("pve1")).isEqualTo(2048L << 20);
        client.run(client.post(path + "/status/stop"));
        assertThat(client.get(path + "/config?current=1").data().get("memory").asText())
                .isEqualTo("8192");
    }

    @Test
    void cdromDrivesAreCheckedStoredWithTheirSizeAndChangedLiveOnlyAsAMedium() throws Exception {
        byte[] iso = SeedIso.make("data", java.util.Map.of("readme", "not a seed\n"));
        assertThat(client.run(client.upload(
                        "/nodes/pve1/storage/local/upload", "filename", "data.iso", iso, "content", "iso")))
                .isEqualTo("OK");
        int id = cloneVm();
        String path = "/nodes/pve1/qemu/" + id;
        assertThat(client.put(path + "/config", "ide2", "local:iso/data.iso").error("ide2"))
                .isEqualTo("explicit 'media=cdrom' is required for iso images");
        assertThat(client.put(path + "/config", "ide2", "data.iso,media=cdrom").error("ide2"))
                .isEqualTo(
                        "invalid format - format error\nfile: invalid format - unable to parse volume ID 'data.iso'");
        assertThat(client.put(path + "/config", "ide2", "local:iso/gone.iso,media=cdrom")
                        .message())
                .isEqualTo("volume local:iso/gone.iso does not exist\n");
        assertThat(client.put(path + "/config", "ide2", "local-lvm:iso/data.iso,media=cdrom")
                        .message())
                .isEqualTo("lvm name 'iso/data.iso' contains illegal characters\n");
        assertThat(client.put(path + "/config", "ide2", "local:iso/data.iso,media=cdrom", "delete", "ide2")
                        .error("delete"))
                .isEqualTo("you can't use '-ide2' and -delete ide2' at the same time");

        assertThat(client.put(path + "/config", "cdrom", "local:iso/data.iso").status())
                .isEqualTo(200);
        JsonNode c = client.get(path + "/config").data();
        assertThat(c.get("ide2").asText())
                .isEqualTo("local:iso/data.iso,media=cdrom,size=" + Drives.formatSize(iso.length));
        assertThat(c.get("boot").asText()).isEqualTo("order=scsi0;net0;ide2");

        client.run(client.post(path + "/status/start"));
        assertThat(client.put(path + "/config", "ide2", "none,media=cdrom").status())
                .isEqualTo(200);
        assertThat(client.get(path + "/config?current=1").data().get("ide2").asText())
                .as("a CD-ROM's medium changes at once")
                .isEqualTo("none,media=cdrom");
        assertThat(client.put(path + "/config", "sata1", "local:iso/data.iso,media=cdrom")
                        .status())
                .isEqualTo(200);
        assertThat(client.get(path + "/config").data().get("sata1").asText()).startsWith("local:iso/data.iso");
        assertThat(client.get(path + "/config?current=1").data().has("sata1"))
                .as("a new SATA drive waits for the restart")
                .isFalse();
        assertThat(client.put(path + "/config", "delete", "ide2").status()).isEqualTo(200);
        assertThat(client.get(path + "/config").data().has("ide2")).isFalse();
        assertThat(client.get(path + "/config?current=1").data().get("ide2").asText())
                .isEqualTo("none,media=cdrom");
        client.run(client.post(path + "/status/stop"));
        JsonNode stopped = client.get(path + "/config?current=1").data();
        assertThat(stopped.has("ide2")).isFalse();
        assertThat(stopped.get("sata1").asText()).startsWith("local:iso/data.iso,media=cdrom");
        assertThat(stopped.get("boot").asText())
                .as("each update starts from the running boot order, as qemu-server's does")
                .isEqualTo("order=scsi0;net0");
    }
}
