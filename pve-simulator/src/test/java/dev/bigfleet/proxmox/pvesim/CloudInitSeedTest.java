package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cloud-init NoCloud seed delivered as Proxmox delivers one: an ISO uploaded to {@code local},
 * attached as a CD-ROM through the config API, read at boot by the guest's real cloud-init (Debian's
 * 22.4 in the sandbox), detached and deleted; and a guest whose agent refuses {@code guest-exec}.
 */
class CloudInitSeedTest {
    private static final Duration CLOUD_INIT = Duration.ofSeconds(90);
    /** A user-data script: it records each run, its user and the host name cloud-init set. */
    private static final String SCRIPT = "#!/bin/sh\necho \"ran as $(id -u) on $(hostname)\" >> /root/seed-runs\n";

    static PveSimulator sim;
    static TestClient client;
    static int nextId = 500;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .templateVmid(9000)
                .template(TemplateSpec.of(9100, "pve1").withExecBlocked())
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static int cloneOf(int template) {
        int id = nextId++;
        assertThat(client.run(client.post(
                        "/nodes/pve1/qemu/" + template + "/clone", "newid", Integer.toString(id), "name", "vm" + id)))
                .isEqualTo("OK");
        return id;
    }

    private static void upload(String name, byte[] iso) {
        assertThat(client.run(
                        client.upload("/nodes/pve1/storage/local/upload", "filename", name, iso, "content", "iso")))
                .isEqualTo("OK");
    }

    private static String vm(int id) {
        return "/nodes/pve1/qemu/" + id;
    }

    /** Starts the VM and waits for cloud-init's last stage; returns how long that took. */
    private static Duration bootUntilCloudInitFinished(int id) {
        long t0 = System.nanoTime();
        assertThat(client.run(client.post(vm(id) + "/status/start"))).isEqualTo("OK");
        sim.guest(id).awaitFileText("/run/cloud-init/result.json", CLOUD_INIT);
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    @Test
    void aSeedIsoAttachedAsCdromBootsThroughCloudInit() throws Exception {
        byte[] iso = SeedIso.cidata("iid-first", SCRIPT);
        upload("seed-a.iso", iso);
        int id = cloneOf(9000);

        TestClient.Resp noMedia = client.put(vm(id) + "/config", "ide2", "local:iso/seed-a.iso");
        assertThat(noMedia.status()).isEqualTo(400);
        assertThat(noMedia.error("ide2")).isEqualTo("explicit 'media=cdrom' is required for iso images");
        TestClient.Resp missing = client.put(vm(id) + "/config", "ide2", "local:iso/nope.iso,media=cdrom");
        assertThat(missing.status()).isEqualTo(500);
        assertThat(missing.message()).isEqualTo("volume local:iso/nope.iso does not exist\n");

        assertThat(client.run(client.post(vm(id) + "/config", "ide2", "media=cdrom,file=local:iso/seed-a.iso")))
                .isEqualTo("OK");
        JsonNode config = client.get(vm(id) + "/config").data();
        assertThat(config.get("ide2").asText())
                .isEqualTo("local:iso/seed-a.iso,media=cdrom,size=" + Drives.formatSize(iso.length));
        assertThat(config.get("boot").asText())
                .as("a new CD-ROM joins the boot order")
                .isEqualTo("order=scsi0;net0;ide2");

        Duration took = bootUntilCloudInitFinished(id);
        System.out.println("cloud-init, first boot with a seed: " + took.toMillis() + " ms");
        GuestConsole guest = sim.guest(id);
        String result = guest.readFileText("/run/cloud-init/result.json").orElseThrow();
        JsonNode v1 = TestClient.JSON.readTree(result).get("v1");
        assertThat(v1.get("datasource").asText())
                .isEqualTo("DataSourceNoCloud [seed=/var/lib/cloud/seed/nocloud][dsmode=net]");
        assertThat(v1.get("errors")).isEmpty();
        assertThat(guest.readFileText("/root/seed-runs").orElseThrow())
                .as("the user-data script ran once, as root, after cloud-init set the seed's host name")
                .isEqualTo("ran as 0 on seeded-iid-first\n");
        assertThat(guest.readFileText("/var/lib/cloud/data/instance-id").orElseThrow())
                .isEqualTo("iid-first\n");

        // a running VM's CD-ROM changes its medium at once; deleting an IDE drive waits for the stop
        assertThat(client.put(vm(id) + "/config", "ide2", "none,media=cdrom").status())
                .isEqualTo(200);
        assertThat(client.get(vm(id) + "/config?current=1").data().get("ide2").asText())
                .isEqualTo("none,media=cdrom");
        assertThat(client.put(vm(id) + "/config", "delete", "ide2").status()).isEqualTo(200);
        assertThat(client.get(vm(id) + "/config").data().has("ide2")).isFalse();
        assertThat(client.get(vm(id) + "/config?current=1").data().has("ide2")).isTrue();
        assertThat(client.run(client.post(vm(id) + "/status/stop"))).isEqualTo("OK");
        JsonNode after = client.get(vm(id) + "/config?current=1").data();
        assertThat(after.has("ide2")).isFalse();
        assertThat(after.get("boot").asText()).isEqualTo("order=scsi0;net0");

        TestClient.Resp del = client.delete("/nodes/pve1/storage/local/content/"
                + URLEncoder.encode("local:iso/seed-a.iso", StandardCharsets.UTF_8));
        assertThat(client.awaitTask(del.data().asText()).get("exitstatus").asText())
                .isEqualTo("OK");
        assertThat(client.get("/nodes/pve1/storage/local/content?content=iso").text())
                .doesNotContain("seed-a.iso");
    }

    @Test
    void aNewInstanceIdRunsCloudInitAgainAndADeletedIsoFailsTheStart() throws Exception {
        upload("seed-b.iso", SeedIso.cidata("iid-one", SCRIPT));
        int id = cloneOf(9000);
        assertThat(client.put(vm(id) + "/config", "cdrom", "local:iso/seed-b.iso")
                        .status())
                .isEqualTo(200);
        assertThat(client.get(vm(id) + "/config").data().get("ide2").asText()).startsWith("local:iso/seed-b.iso,");
        bootUntilCloudInitFinished(id);
        assertThat(client.run(client.post(vm(id) + "/status/stop"))).isEqualTo("OK");

        // the same name, a new instance id: per-instance modules (the user script) run again
        upload("seed-b.iso", SeedIso.cidata("iid-two", SCRIPT));
        Duration took = bootUntilCloudInitFinished(id);
        System.out.println("cloud-init, a boot with a new instance id: " + took.toMillis() + " ms");
        assertThat(sim.guest(id).readFileText("/root/seed-runs").orElseThrow())
                .isEqualTo("ran as 0 on seeded-iid-one\nran as 0 on seeded-iid-two\n");
        assertThat(client.run(client.post(vm(id) + "/status/stop"))).isEqualTo("OK");

        // pve-storage deletes an ISO whoever uses it; the VM's next start finds it missing
        assertThat(client.run(client.delete("/nodes/pve1/storage/local/content/local:iso/seed-b.iso")))
                .isEqualTo("OK");
        assertThat(client.run(client.post(vm(id) + "/status/start")))
                .isEqualTo("volume 'local:iso/seed-b.iso' does not exist");
    }

    @Test
    void aGuestWhoseAgentBlocksExecStillAnswersPingAndFileWrite() {
        int id = cloneOf(9100);
        assertThat(client.run(client.post(vm(id) + "/status/start"))).isEqualTo("OK");
        TestClient.Resp ping = null;
        for (int i = 0; i < 300 && (ping == null || ping.status() != 200); i++) {
            ping = client.post(vm(id) + "/agent/ping");
            TestClient.sleep(20);
        }
        assertThat(ping.status()).as(ping.text()).isEqualTo(200);

        TestClient.Resp exec = client.post(vm(id) + "/agent/exec", "command", "/bin/true");
        assertThat(exec.status()).isEqualTo(500);
        assertThat(exec.message()).isEqualTo("Agent error: Command guest-exec has been disabled\n");
        TestClient.Resp status = client.get(vm(id) + "/agent/exec-status?pid=1");
        assertThat(status.message()).isEqualTo("Agent error: Command guest-exec-status has been disabled\n");

        assertThat(client.post(vm(id) + "/agent/file-write", "file", "/root/hello", "content", "written")
                        .status())
                .isEqualTo(200);
        assertThat(sim.guest(id).readFileText("/root/hello")).contains("written");
        assertThat(sim.guest(id).readFileText("/etc/qemu/qemu-ga.conf").orElseThrow())
                .contains("block-rpcs=guest-exec,guest-exec-status");
    }
}
