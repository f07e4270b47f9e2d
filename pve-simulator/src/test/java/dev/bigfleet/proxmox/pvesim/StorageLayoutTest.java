package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Storage as qemu-server and pve-storage enforce it: node-local disks cannot be cloned to another
 * node, linked clones need a base on a storage that supports them and keep it busy, copies need
 * the space, and the status endpoints report what is used.
 */
class StorageLayoutTest {
    static PveSimulator sim;
    static TestClient client;
    static final long GIB = 1L << 30;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .pool("bigfleet")
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm().withCapacityGib(100))
                .storage(StorageSpec.cephRbd())
                .storage(StorageSpec.localOf("thick", StorageType.LVM).onNodes("pve1"))
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm"))
                .template(TemplateSpec.of(9001, "pve2").withStorage("local-lvm").withCloudInit())
                .template(TemplateSpec.of(9002, "pve1").withStorage("ceph-vm"))
                .template(TemplateSpec.of(9003, "pve1").withStorage("ceph-vm").withIso())
                .template(TemplateSpec.of(9004, "pve1").withStorage("thick"))
                .storage(StorageSpec.localOf("thin2", StorageType.LVMTHIN).onNodes("pve1"))
                .template(TemplateSpec.of(9005, "pve1").withStorage("thin2").withDiskGib(8))
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
        sim.faults().clear();
        for (VmView vm : sim.vms()) {
            if (!vm.template()) {
                sim.faults().destroyVm(vm.vmid());
            }
        }
    }

    private String clone(int template, String node, String... more) {
        List<String> p = new ArrayList<>(List.of("newid", nextId()));
        p.addAll(List.of(more));
        TestClient.Resp r = client.post("/nodes/" + node + "/qemu/" + template + "/clone", p.toArray(new String[0]));
        assertThat(r.status()).as(r.text()).isEqualTo(200);
        return r.data().asText();
    }

    private String nextId() {
        return client.get("/cluster/nextid").data().asText();
    }

    @Test
    void eachNodeHasItsOwnLocalStorageAndSharesTheShared() {
        TestClient.Resp list = client.get("/nodes/pve1/storage?content=images");
        JsonNode lvm = null;
        JsonNode ceph = null;
        for (JsonNode s : list.data()) {
            if (s.get("storage").asText().equals("local-lvm")) {
                lvm = s;
            }
            if (s.get("storage").asText().equals("ceph-vm")) {
                ceph = s;
            }
        }
        assertThat(lvm.get("type").asText()).isEqualTo("lvmthin");
        assertThat(lvm.get("shared").asInt()).isZero();
        assertThat(lvm.get("active").asInt()).isEqualTo(1);
        assertThat(lvm.get("total").asLong()).isEqualTo(100 * GIB);
        assertThat(lvm.get("used").asLong())
                .as("template 9000's 32 GiB base disk")
                .isEqualTo(32 * GIB);
        assertThat(lvm.get("avail").asLong()).isEqualTo(68 * GIB);
        assertThat(ceph.get("shared").asInt()).isEqualTo(1);
        assertThat(ceph.get("type").asText()).isEqualTo("rbd");
        assertThat(list.text()).doesNotContain("\"storage\":\"local\"").as("local holds no images");

        JsonNode onPve2 = client.get("/nodes/pve2/storage/local-lvm/status").data();
        assertThat(onPve2.get("used").asLong())
                .as("pve2's own thin pool: template 9001's disk and cloud-init drive")
                .isEqualTo(32 * GIB + (4L << 20));
        JsonNode thickOnPve2 = client.get("/nodes/pve2/storage/thick/status").data();
        assertThat(thickOnPve2.get("enabled").asInt())
                .as("thick is only on pve1")
                .isZero();
        assertThat(thickOnPve2.get("active").asInt()).isZero();
        assertThat(client.get("/nodes/pve1/storage/nope/status").error("storage"))
                .isEqualTo("No such storage.");
        assertThat(client.get("/nodes/pve1/storage?storage=x_").error("storage"))
                .isEqualTo("invalid format - storage ID 'x_' contains illegal characters");

        List<String> resources = new ArrayList<>();
        for (JsonNode r : client.get("/cluster/resources?type=storage").data()) {
            resources.add(r.get("id").asText() + "=" + r.get("disk").asLong() / GIB);
        }
        assertThat(resources)
                .contains("storage/pve1/local-lvm=32", "storage/pve2/local-lvm=32", "storage/pve1/thick=32");
        assertThat(resources).doesNotContain("storage/pve2/thick=0");
    }

    @Test
    void localDisksAndLocalIsosCannotBeClonedToAnotherNode() {
        TestClient.Resp local =
                client.post("/nodes/pve1/qemu/9000/clone", "newid", nextId(), "target", "pve2", "full", "1");
        assertThat(local.status()).isEqualTo(500);
        assertThat(local.message()).isEqualTo("can't clone VM to node 'pve2' (VM uses local storage)\n");
        TestClient.Resp iso = client.post("/nodes/pve1/qemu/9003/clone", "newid", nextId(), "target", "pve2");
        assertThat(iso.message())
                .as("the disk is on Ceph, the ISO on local")
                .isEqualTo("can't clone VM to node 'pve2' (VM uses local storage)\n");
        TestClient.Resp nonShared = client.post(
                "/nodes/pve1/qemu/9002/clone",
                "newid",
                nextId(),
                "target",
                "pve2",
                "full",
                "1",
                "storage",
                "local-lvm");
        assertThat(nonShared.message()).isEqualTo("can't clone to non-shared storage 'local-lvm'\n");

        assertThat(client.awaitTask(clone(9002, "pve1", "target", "pve2"))
                        .get("exitstatus")
                        .asText())
                .as("a linked clone of a shared template may go anywhere")
                .isEqualTo("OK");
    }

    @Test
    void linkedClonesNeedABaseOnAStorageThatCanLinkAndRefuseStorage() {
        TestClient.Resp withStorage =
                client.post("/nodes/pve1/qemu/9000/clone", "newid", nextId(), "storage", "local-lvm");
        assertThat(withStorage.message()).isEqualTo("parameter 'storage' not allowed for linked clones\n");
        TestClient.Resp thick = client.post("/nodes/pve1/qemu/9004/clone", "newid", nextId(), "full", "0");
        assertThat(thick.status()).isEqualTo(500);
        assertThat(thick.message())
                .isEqualTo("Linked clone feature is not supported for 'thick:base-9004-disk-0' (scsi0)\n");
        assertThat(client.awaitTask(clone(9004, "pve1", "full", "1"))
                        .get("exitstatus")
                        .asText())
                .isEqualTo("OK");
    }

    @Test
    void aLinkedCloneTakesNoSpaceAndKeepsItsBaseButLvmThinLetsTheBaseGo() {
        String id = nextId();
        assertThat(client.awaitTask(clone(9000, "pve1")).get("exitstatus").asText())
                .isEqualTo("OK");
        VmView linked = sim.vm(Integer.parseInt(id)).orElseThrow();
        assertThat(linked.config().get("scsi0")).isEqualTo("local-lvm:vm-" + id + "-disk-0,size=32G");
        StorageView lvm = sim.storage("local-lvm", "pve1").orElseThrow();
        assertThat(lvm.usedBytes()).as("only the template's base disk").isEqualTo(32 * GIB);

        String cephId = nextId();
        client.awaitTask(clone(9002, "pve1"));
        assertThat(sim.vm(Integer.parseInt(cephId)).orElseThrow().config().get("scsi0"))
                .isEqualTo("ceph-vm:base-9002-disk-0/vm-" + cephId + "-disk-0,size=32G");
        TestClient.Resp destroyCephBase = client.delete("/nodes/pve1/qemu/9002");
        assertThat(destroyCephBase.status())
                .as("the refusal comes from the task")
                .isEqualTo(200);
        assertThat(client.awaitTask(destroyCephBase.data().asText())
                        .get("exitstatus")
                        .asText())
                .isEqualTo("base volume 'ceph-vm:base-9002-disk-0' is still in use by linked cloned");
        assertThat(sim.vm(9002)).isPresent();

        // LVM-thin's clones do not name their base: the template goes, its clone stays
        String thinId = nextId();
        client.awaitTask(clone(9005, "pve1"));
        assertThat(client.run(client.delete("/nodes/pve1/qemu/9005?purge=1"))).isEqualTo("OK");
        assertThat(sim.vm(9005)).isEmpty();
        assertThat(sim.vm(Integer.parseInt(thinId))).isPresent();
        assertThat(sim.storage("thin2", "pve1").orElseThrow().volumes())
                .extracting(StorageView.VolumeView::volid)
                .containsExactly("thin2:vm-" + thinId + "-disk-0");
    }

    @Test
    void aFullCloneThatDoesNotFitFailsItsTaskAndLeavesNothing() {
        sim.faults().storageCapacity("local-lvm", "pve2", 40 * GIB);
        String id = nextId();
        JsonNode done = client.awaitTask(clone(9001, "pve2", "full", "1"));
        assertThat(done.get("exitstatus").asText())
                .startsWith("clone failed: copy failed: command '/usr/bin/qemu-img convert -p -n -f raw -O raw"
                        + " /dev/pve/base-9001-disk-0 /dev/pve/vm-" + id + "-disk-0' failed: exit code 1");
        assertThat(sim.vm(Integer.parseInt(id))).isEmpty();
        assertThat(sim.storage("local-lvm", "pve2").orElseThrow().volumes())
                .extracting(StorageView.VolumeView::owner)
                .containsOnly(9001);
        sim.faults().storageCapacity("local-lvm", "pve2", 100 * GIB);
        assertThat(client.awaitTask(clone(9001, "pve2", "full", "1"))
                        .get("exitstatus")
                        .asText())
                .isEqualTo("OK");
        VmView full = sim.vms().stream().filter(v -> !v.template()).findFirst().orElseThrow();
        assertThat(full.config().get("ide2")).isEqualTo("local-lvm:vm-" + full.vmid() + "-cloudinit,media=cdrom");
        assertThat(sim.storage("local-lvm", "pve2").orElseThrow().usedBytes()).isEqualTo(2 * (32 * GIB + (4L << 20)));
    }

    @Test
    void aStorageLockTimeoutFailsTheCloneTask() {
        sim.faults().storageLockTimeouts("local-lvm", 1);
        sim.faults().storageLockTimeouts("ceph-vm", 1);
        assertThat(client.awaitTask(clone(9000, "pve1", "full", "1"))
                        .get("exitstatus")
                        .asText())
                .isEqualTo("clone failed: can't lock file '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout");
        assertThat(client.awaitTask(clone(9002, "pve1")).get("exitstatus").asText())
                .isEqualTo("clone failed: cfs-lock 'storage-ceph-vm' error: got lock request timeout");
        assertThat(client.awaitTask(clone(9000, "pve1", "full", "1"))
                        .get("exitstatus")
                        .asText())
                .isEqualTo("OK");
    }

    @Test
    void aDiskTheDestroyCannotLockStaysAndTheTaskEndsWithWarningsInItsLog() {
        String id = nextId();
        assertThat(client.awaitTask(clone(9000, "pve1", "full", "1"))
                        .get("exitstatus")
                        .asText())
                .isEqualTo("OK");
        long usedWithClone = sim.storage("local-lvm", "pve1").orElseThrow().usedBytes();
        sim.faults().diskRemovalLockTimeouts("local-lvm", 1);

        TestClient.Resp destroy = client.delete("/nodes/pve1/qemu/" + id + "?purge=1");
        assertThat(destroy.status()).as(destroy.text()).isEqualTo(200);
        String upid = destroy.data().asText();
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("WARNINGS: 1");

        assertThat(sim.vm(Integer.parseInt(id))).as("the VM is gone").isEmpty();
        assertThat(sim.storage("local-lvm", "pve1").orElseThrow().volumes())
                .extracting(StorageView.VolumeView::owner)
                .as("its disk stays, owned by the VMID")
                .contains(Integer.parseInt(id));
        assertThat(sim.storage("local-lvm", "pve1").orElseThrow().usedBytes()).isEqualTo(usedWithClone);
        JsonNode log = client.get("/nodes/pve1/tasks/" + upid + "/log").data();
        List<String> lines = new ArrayList<>();
        log.forEach(l -> lines.add(l.get("n").asInt() + " " + l.get("t").asText()));
        assertThat(lines)
                .containsExactly(
                        "1 Could not remove disk 'local-lvm:vm-" + id + "-disk-0', check manually: can't lock file"
                                + " '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout",
                        "2 TASK WARNINGS: 1");
        assertThat(client.get("/nodes/pve1/tasks/" + upid + "/log?start=1&limit=1")
                        .data()
                        .get(0)
                        .get("t")
                        .asText())
                .isEqualTo("TASK WARNINGS: 1");
    }
}
