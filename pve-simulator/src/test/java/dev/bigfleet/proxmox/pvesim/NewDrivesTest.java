package dev.bigfleet.proxmox.pvesim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Disks a config update allocates with {@code STORAGE:SIZE}: data disks on SCSI and virtio, the EFI
 * vars disk and the TPM state disk, each a new volume of the VM; what qemu-server refuses before
 * anything changes (the bus's options, the storage's content, the token's privilege) and what
 * fails the update (thick LVM without room); and the destroy that removes them all.
 */
class NewDrivesTest {
    static PveSimulator sim;
    static TestClient client;

    @BeforeAll
    static void start() throws Exception {
        sim = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.localOf("thick", StorageType.LVM).withCapacityGib(8))
                .storage(StorageSpec.localOf("data", StorageType.DIR).onNodes("pve2"))
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm"))
                .token("bigfleet@pve!autoscaler=s3cret")
                .tokenPrivileges(TokenPrivileges.poolScoped("bigfleet")
                        .grant("/vms/9000", "VM.Audit", "VM.Clone")
                        .revoke("/storage", "Datastore.AllocateSpace")
                        .grant("/storage/local-lvm", "Datastore.AllocateSpace")
                        .grant("/storage/thick", "Datastore.AllocateSpace")
                        .grant("/storage/local", "Datastore.AllocateSpace")
                        .grant("/storage/data", "Datastore.AllocateSpace"))
                .build());
        client = TestClient.of(sim);
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private int cloned() {
        String id = client.get("/cluster/nextid").data().asText();
        assertThat(client.run(client.post("/nodes/pve1/qemu/9000/clone", "newid", id, "full", "1", "pool", "bigfleet")))
                .isEqualTo("OK");
        return Integer.parseInt(id);
    }

    private static String config(int vmid, String key) {
        return String.valueOf(sim.vm(vmid).orElseThrow().config().get(key));
    }

    @Test
    void aConfigTaskAllocatesEachNewDiskAsAVolumeOfTheVm() {
        int vmid = cloned();
        String path = "/nodes/pve1/qemu/" + vmid + "/config";
        String upid = client.post(
                        path,
                        "scsi1",
                        "local-lvm:100,ssd=1,discard=on,iothread=1,cache=none",
                        "virtio0",
                        "local-lvm:2",
                        "efidisk0",
                        "local-lvm:1,efitype=4m,pre-enrolled-keys=0",
                        "tpmstate0",
                        "local-lvm:1,version=v2.0",
                        "bios",
                        "ovmf")
                .data()
                .asText();
        assertThat(client.awaitTask(upid).get("exitstatus").asText()).isEqualTo("OK");

        assertThat(config(vmid, "scsi1"))
                .isEqualTo("local-lvm:vm-" + vmid + "-disk-1,cache=none,discard=on,iothread=1,size=100G,ssd=1");
        assertThat(config(vmid, "virtio0")).isEqualTo("local-lvm:vm-" + vmid + "-disk-2,size=2G");
        assertThat(config(vmid, "efidisk0"))
                .as("the EFI vars' size, rounded to LVM's 4 MiB extent")
                .isEqualTo("local-lvm:vm-" + vmid + "-disk-3,efitype=4m,pre-enrolled-keys=0,size=4M");
        assertThat(config(vmid, "tpmstate0")).isEqualTo("local-lvm:vm-" + vmid + "-disk-4,size=4M,version=v2.0");
        assertThat(config(vmid, "bios")).isEqualTo("ovmf");
        assertThat(sim.storage("local-lvm", "pve1").orElseThrow().volumes())
                .filteredOn(v -> v.owner() == vmid)
                .hasSize(5);

        assertThat(client.run(client.post(path, "scsi1", "local-lvm:1"))).isEqualTo("OK");
        assertThat(config(vmid, "unused0"))
                .as("the disk the key held before stays the VM's")
                .isEqualTo("local-lvm:vm-" + vmid + "-disk-1");

        client.run(client.delete("/nodes/pve1/qemu/" + vmid + "?purge=1&destroy-unreferenced-disks=1"));
        assertThat(sim.storage("local-lvm", "pve1").orElseThrow().volumes())
                .as("the destroy removed every disk the VM had")
                .noneMatch(v -> v.owner() == vmid);
    }

    @Test
    void whatQemuServerRefusesChangesNothing() {
        int vmid = cloned();
        String path = "/nodes/pve1/qemu/" + vmid + "/config";
        TestClient.Resp ssdOnVirtio = client.put(path, "virtio1", "local-lvm:4,ssd=1");
        assertThat(ssdOnVirtio.status()).isEqualTo(400);
        assertThat(ssdOnVirtio.error("virtio1"))
                .isEqualTo("invalid format - invalid key in comma-separated list property: ssd");

        TestClient.Resp noImages = client.put(path, "scsi2", "local:4");
        assertThat(noImages.status()).isEqualTo(400);
        assertThat(noImages.error("storage")).isEqualTo("storage 'local' does not support vm images");

        TestClient.Resp unknown = client.put(path, "scsi2", "nosuch:4");
        assertThat(unknown.status()).isEqualTo(403);

        TestClient.Resp badEfi = client.put(path, "efidisk0", "local-lvm:1,efitype=8m");
        assertThat(badEfi.status()).isEqualTo(400);
        assertThat(client.put(path, "bios", "uefi").status()).isEqualTo(400);

        assertThat(sim.vm(vmid).orElseThrow().config()).doesNotContainKeys("virtio1", "scsi2", "efidisk0");
    }

    @Test
    void thickLvmWithoutRoomAndAStorageTheNodeLacksFailTheUpdate() {
        int vmid = cloned();
        String path = "/nodes/pve1/qemu/" + vmid + "/config";
        assertThat(client.run(client.post(path, "scsi3", "thick:16")))
                .isEqualTo("not enough free space (" + (8L << 30) + " < " + (16L << 20) + ")");
        assertThat(client.run(client.post(path, "scsi3", "data:1")))
                .isEqualTo("storage 'data' is not available on node 'pve1'");
        assertThat(client.run(client.post(path, "scsi3", "thick:6"))).isEqualTo("OK");
        assertThat(sim.storage("thick", "pve1").orElseThrow().availBytes())
                .as("thick LVM takes the space at allocation")
                .isEqualTo(2L << 30);
        assertThat(sim.vm(vmid).orElseThrow().config()).containsKey("scsi3");
    }

    @Test
    void allocatingNeedsAllocateSpaceOnTheStorage() throws Exception {
        try (PveSimulator own = PveSimulator.start(SimulatorConfig.builder()
                .nodes("pve1")
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.localOf("other", StorageType.LVMTHIN))
                .pool("bigfleet")
                .template(TemplateSpec.of(9000, "pve1").withStorage("local-lvm"))
                .token("bigfleet@pve!autoscaler=s3cret")
                .tokenPrivileges(TokenPrivileges.poolScoped("bigfleet")
                        .grant("/vms/9000", "VM.Audit", "VM.Clone")
                        .revoke("/storage", "Datastore.AllocateSpace")
                        .grant("/storage/local-lvm", "Datastore.AllocateSpace"))
                .build())) {
            TestClient c = TestClient.of(own);
            assertThat(c.run(c.post("/nodes/pve1/qemu/9000/clone", "newid", "150", "pool", "bigfleet", "full", "1")))
                    .isEqualTo("OK");
            TestClient.Resp refused = c.post("/nodes/pve1/qemu/150/config", "scsi1", "other:4");
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.message()).contains("Datastore.AllocateSpace");
            assertThat(own.vm(150).orElseThrow().config()).doesNotContainKey("scsi1");
        }
    }
}
