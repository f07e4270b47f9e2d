package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ISO images on storages as pve-storage has them: the upload (pveproxy's multipart reading, the
 * {@code upload} method's checks and its {@code imgcopy} task), the content list and the delete
 * ({@code imgdel}), with Proxmox's words for each refusal.
 */
class IsoStorageTest {
    static PveSimulator sim;
    static TestClient client;
    static byte[] seed;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.cephRbd())
                .storage(new StorageSpec("backups", StorageType.DIR, false, 1L << 30, List.of("backup"), List.of()))
                .storage(new StorageSpec("small", StorageType.DIR, false, 600 << 10, List.of("iso"), List.of("pve1")))
                .templateVmid(9000)
                .token("bigfleet@pve!autoscaler=s3cret")
                .build());
        client = TestClient.of(sim);
        seed = SeedIso.cidata("iid-storage", "#!/bin/sh\ntrue\n");
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static TestClient.Resp upload(String storage, String filename, byte[] iso, String... fields) {
        List<String> form = new ArrayList<>(List.of("content", "iso"));
        form.addAll(List.of(fields));
        return client.upload(
                "/nodes/pve1/storage/" + storage + "/upload", "filename", filename, iso, form.toArray(new String[0]));
    }

    private static List<JsonNode> isos(String storage) {
        List<JsonNode> out = new ArrayList<>();
        client.get("/nodes/pve1/storage/" + storage + "/content?content=iso")
                .data()
                .forEach(out::add);
        return out;
    }

    private static String encoded(String volid) {
        return URLEncoder.encode(volid, StandardCharsets.UTF_8);
    }

    @Test
    void anUploadedIsoIsListedWithItsSizeAndDeletedByItsTask() {
        long usedBefore = sim.storage("local", "pve1").orElseThrow().usedBytes();
        TestClient.Resp r = upload("local", "seed.iso", seed);
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        String upid = r.data().asText();
        assertThat(upid).matches("UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:imgcopy::bigfleet@pve!autoscaler:");
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");
        assertThat(client.get("/nodes/pve1/tasks/" + encoded(upid) + "/log").text())
                .contains("target file: /var/lib/vz/template/iso/seed.iso", "file size is: " + seed.length);

        JsonNode listed = isos("local").stream()
                .filter(v -> v.get("volid").asText().equals("local:iso/seed.iso"))
                .findFirst()
                .orElseThrow();
        assertThat(listed.get("format").asText()).isEqualTo("iso");
        assertThat(listed.get("content").asText()).isEqualTo("iso");
        assertThat(listed.get("size").asLong()).isEqualTo(seed.length);
        assertThat(client.get("/nodes/pve2/storage/local/content").data().toString())
                .as("local is each node's own")
                .doesNotContain("seed.iso");
        assertThat(client.get("/nodes/pve1/storage/local/content?vmid=9000")
                        .data()
                        .toString())
                .as("ISO images belong to no VM")
                .doesNotContain("seed.iso");
        assertThat(sim.storage("local", "pve1").orElseThrow().usedBytes()).isEqualTo(usedBefore + seed.length);

        TestClient.Resp del = client.delete("/nodes/pve1/storage/local/content/" + encoded("local:iso/seed.iso"));
        assertThat(del.data().asText()).contains(":imgdel:local:");
        assertThat(client.awaitTask(del.data().asText()).get("exitstatus").asText())
                .isEqualTo("OK");
        assertThat(isos("local")).noneMatch(v -> v.get("volid").asText().equals("local:iso/seed.iso"));

        // a missing volume: the task warns (free_image) and still says it removed it; the volume ID
        // may be given with its slash unencoded
        TestClient.Resp again = client.delete("/nodes/pve1/storage/local/content/local:iso/seed.iso");
        assertThat(client.awaitTask(again.data().asText()).get("exitstatus").asText())
                .isEqualTo("WARNINGS: 1");
        assertThat(client.get("/nodes/pve1/tasks/" + encoded(again.data().asText()) + "/log")
                        .text())
                .contains(
                        "disk image '/var/lib/vz/template/iso/seed.iso' does not exist",
                        "Removed volume 'local:iso/seed.iso'");
        TestClient.Resp waited = client.delete("/nodes/pve1/storage/local/content/iso/seed.iso?delay=5");
        assertThat(waited.status()).as(waited.text()).isEqualTo(200);
        assertThat(waited.data().isNull())
                .as("a task that ends within the delay is answered null")
                .isTrue();
    }

    @Test
    void refusalsAreProxmoxs() {
        TestClient.Resp lvm = upload("local-lvm", "seed.iso", seed);
        assertThat(lvm.status()).isEqualTo(500);
        assertThat(lvm.message()).isEqualTo("can't upload to storage type 'lvmthin'\n");
        assertThat(upload("ceph-vm", "seed.iso", seed).message()).isEqualTo("can't upload to storage type 'rbd'\n");
        assertThat(upload("backups", "seed.iso", seed).message())
                .isEqualTo("storage 'backups' does not support 'iso' content\n");
        assertThat(upload("nope", "seed.iso", seed).message()).isEqualTo("storage 'nope' does not exist\n");

        TestClient.Resp ext = upload("local", "seed.txt", seed);
        assertThat(ext.status()).isEqualTo(400);
        assertThat(ext.error("filename")).isEqualTo("wrong file extension");
        TestClient.Resp content = upload("local", "seed.iso", seed, "content", "images");
        assertThat(content.status()).isEqualTo(400);
        assertThat(content.error("content"))
                .isEqualTo("value 'images' does not have a value in the enumeration 'iso, vztmpl, import'");

        TestClient.Resp field =
                client.upload("/nodes/pve1/storage/local/upload", "file", "seed.iso", seed, "content", "iso");
        assertThat(field.status())
                .as("pveproxy reads the file only from a part named filename")
                .isEqualTo(500);
        assertThat(field.text()).startsWith("wrong field name 'file' for file upload, expected 'filename'");

        TestClient.Resp del = client.delete("/nodes/pve1/storage/local/content/seed.iso");
        assertThat(del.status()).isEqualTo(500);
        assertThat(del.message()).isEqualTo("unable to parse directory volume name 'seed.iso'\n");
        assertThat(client.delete("/nodes/pve1/storage/local/content/local:iso/seed.txt")
                        .message())
                .isEqualTo("unable to parse directory volume name 'iso/seed.txt'\n");
        TestClient.Resp mismatch =
                client.delete("/nodes/pve1/storage/local/content/" + encoded("ceph-vm:iso/seed.iso"));
        assertThat(mismatch.status()).as(mismatch.text()).isEqualTo(400);
        assertThat(mismatch.error("volume")).isEqualTo("storage ID mismatch (ceph-vm != local)");
    }

    @Test
    void namesAreNormalisedAndAnExistingFileIsOverwritten() throws Exception {
        assertThat(client.run(upload("local", "C:\\isos\\my seed.ISO", seed))).isEqualTo("OK");
        assertThat(isos("local")).anyMatch(v -> v.get("volid").asText().equals("local:iso/my_seed.ISO"));

        byte[] other = SeedIso.cidata("iid-other-and-longer", "#!/bin/sh\necho " + "x".repeat(5000) + "\n");
        assertThat(client.run(upload("local", "twice.iso", seed))).isEqualTo("OK");
        assertThat(client.run(upload("local", "twice.iso", other)))
                .as("pve-storage overwrites a file of the same name")
                .isEqualTo("OK");
        assertThat(isos("local").stream()
                        .filter(v -> v.get("volid").asText().equals("local:iso/twice.iso"))
                        .map(v -> v.get("size").asLong())
                        .toList())
                .containsExactly((long) other.length);

        String sha =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(seed));
        assertThat(client.run(upload("local", "sum.iso", seed, "checksum-algorithm", "sha256", "checksum", sha)))
                .isEqualTo("OK");
        assertThat(client.run(upload("local", "sum.iso", seed, "checksum-algorithm", "sha256", "checksum", "00")))
                .isEqualTo("checksum mismatch: got '" + sha + "' != expect '00'");
    }

    @Test
    void anUploadThatDoesNotFitFailsItsTaskAsCpDoes() {
        // 600 KiB: one seed (368 KiB) fits, a second does not
        assertThat(client.run(upload("small", "a.iso", seed))).isEqualTo("OK");
        assertThat(client.run(upload("small", "b.iso", seed)))
                .isEqualTo("import failed: cp: error writing '/mnt/pve/small/template/iso/b.iso': No space left"
                        + " on device");
        assertThat(isos("small")).extracting(v -> v.get("volid").asText()).containsExactly("small:iso/a.iso");
        assertThat(client.run(upload("small", "a.iso", seed)))
                .as("an overwrite gets the old file's space")
                .isEqualTo("OK");

        // small is enabled on pve1 only
        assertThat(client.get("/nodes/pve2/storage/small/content").message())
                .isEqualTo("storage 'small' is not available on node 'pve2'\n");
        assertThat(client.run(client.delete("/nodes/pve2/storage/small/content/small:iso/a.iso")))
                .isEqualTo("storage 'small' is not available on node 'pve2'");
    }

    @Test
    void theUploadPrivilegeIsCheckedBeforeTheBodyIsRead() throws Exception {
        try (PveSimulator scoped = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm"))
                .token("bigfleet@pve!autoscaler=s3cret")
                .poolScopedToken("bigfleet")
                .build())) {
            TestClient c = TestClient.of(scoped);
            // a small body: pveproxy answers before reading it, so a large one would meet a closed socket
            TestClient.Resp r = c.upload(
                    "/nodes/pve1/storage/local/upload", "filename", "seed.iso", new byte[16], "content", "iso");
            assertThat(r.status()).isEqualTo(403);
            assertThat(r.text()).as("refused with the authentication: no body").isEmpty();
            assertThat(c.get("/nodes/pve1/storage/local/content").status())
                    .as("Datastore.AllocateSpace lets it list")
                    .isEqualTo(200);
            TestClient.Resp del = c.delete("/nodes/pve1/storage/local/content/local:iso/seed.iso");
            assertThat(del.status()).isEqualTo(403);
            assertThat(del.message()).isEqualTo("Permission check failed (/storage/local, Datastore.Allocate)\n");
        }
    }
}
