package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.StorageType;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An instance type's {@code disks}, {@code bios}, {@code efi_storage} and {@code tpm}, read back
 * from the clone's config through the API: each data disk a new volume of its size and options in
 * the first free slot of its bus, the EFI vars and TPM state disks, all removed with the VM; a
 * storage that cannot hold them stops startup, one without the room fails the Create, each naming
 * the key.
 */
class DisksAndFirmwareOnSimulatorTest {
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

    private static InstanceTypeCatalog small(Map<String, String> settings) {
        return SimulatorBackends.catalog(SimulatorBackends.type("pve.small", settings));
    }

    private ProxmoxBackend start(InstanceTypeCatalog catalog) throws Exception {
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .storage(StorageSpec.cephRbd())
                .storage(StorageSpec.localOf("thick", StorageType.LVM).withCapacityGib(40))
                .start();
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                List.of("pve1", "pve2"),
                catalog,
                List.of(
                        new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()),
                        new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 4, Map.of(), Map.of())),
                Map.of(),
                new CountingRecorder());
    }

    private CreatedVm create(ProxmoxBackend backend, InstanceTypeCatalog catalog, String node, int n)
            throws BackendException {
        String id = "proxmox/OnDemand/pve.small/" + node + "/00" + n;
        return backend.cloneAndStart(
                new CloneSpec(id, catalog.find("pve.small").orElseThrow(), node, Map.of()), forMachine(id));
    }

    @Test
    void dataDisksAndUefiWithTpmAreNewVolumesOfTheCloneAndGoWithIt() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of(
                "disks",
                "[{\"storage\": \"local-lvm\", \"size_gib\": 100, \"ssd\": true, \"discard\": true,"
                        + " \"iothread\": true, \"cache\": \"none\"}, {\"storage\": \"thick\", \"size_gib\": 10,"
                        + " \"bus\": \"virtio\"}]",
                "bios",
                "\"ovmf\"",
                "efi_storage",
                "\"local-lvm\"",
                "tpm",
                "\"local-lvm\""));
        try (ProxmoxBackend backend = start(catalog)) {
            CreatedVm c = create(backend, catalog, "pve2", 0);
            VmView v = cluster.simulator().vm((int) c.vmid()).orElseThrow();
            String vm = Long.toString(c.vmid());
            assertThat(v.config().get("scsi1"))
                    .as("the template's boot disk (on ceph-vm) is scsi0: the first data disk takes scsi1")
                    .isEqualTo("local-lvm:vm-" + vm + "-disk-0,cache=none,discard=on,iothread=1,size=100G,ssd=1");
            assertThat(v.config().get("virtio0")).isEqualTo("thick:vm-" + vm + "-disk-0,size=10G");
            assertThat(v.config()).containsEntry("bios", "ovmf");
            assertThat(v.config().get("efidisk0").toString())
                    .startsWith("local-lvm:vm-" + vm + "-disk-")
                    .contains("efitype=4m", "pre-enrolled-keys=0");
            assertThat(v.config().get("tpmstate0").toString())
                    .startsWith("local-lvm:vm-" + vm + "-disk-")
                    .contains("version=v2.0");
            assertThat(cluster.simulator()
                            .storage("thick", "pve2")
                            .orElseThrow()
                            .availBytes())
                    .isEqualTo(30L << 30);

            backend.destroy(
                    new VmTarget("proxmox/OnDemand/pve.small/pve2/000", c.node(), c.vmid()),
                    forMachine("proxmox/OnDemand/pve.small/pve2/000"));
            assertThat(cluster.simulator()
                            .storage("local-lvm", "pve2")
                            .orElseThrow()
                            .volumes())
                    .noneMatch(x -> x.owner() == c.vmid());
            assertThat(cluster.simulator()
                            .storage("thick", "pve2")
                            .orElseThrow()
                            .volumes())
                    .noneMatch(x -> x.owner() == c.vmid());
        }
    }

    @Test
    void aRetriedCreateAllocatesWhatTheFirstDidNotAndNothingTwice() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of("disks", "[{\"storage\": \"local-lvm\", \"size_gib\": 20}]"));
        try (ProxmoxBackend backend = start(catalog)) {
            cluster.simulator().faults().failTasks(dev.bigfleet.proxmox.pvesim.TaskKind.CONFIG, 1);
            assertThatThrownBy(() -> create(backend, catalog, "pve1", 0))
                    .hasMessageContaining("allocate scsi1 (the type's disks) on VM pve1/");
            CreatedVm first = create(backend, catalog, "pve1", 0);
            assertThat(cluster.simulator().vm((int) first.vmid()).orElseThrow().config())
                    .as("the retry took the VM over and allocated the disk")
                    .containsKey("scsi1");

            cluster.simulator().faults().dropResponses("POST", ".*/qemu/\\d+/config", 1);
            assertThatThrownBy(() -> create(backend, catalog, "pve1", 1)).isInstanceOf(BackendException.class);
            CreatedVm second = create(backend, catalog, "pve1", 1);
            assertThat(cluster.simulator()
                            .storage("local-lvm", "pve1")
                            .orElseThrow()
                            .volumes())
                    .as("the lost answer's allocation happened; the retry saw it and allocated nothing more")
                    .filteredOn(x -> x.owner() == second.vmid())
                    .hasSize(1);
            assertThat(cluster.simulator().vm((int) second.vmid()).orElseThrow().config())
                    .doesNotContainKey("unused0");
        }
    }

    @Test
    void aCreateTheStorageHasNoRoomForFailsNamingTheDisksAndMakesNoVm() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of("disks", "[{\"storage\": \"thick\", \"size_gib\": 30}]"));
        try (ProxmoxBackend backend = start(catalog)) {
            create(backend, catalog, "pve1", 0);
            int before = cluster.simulator().vms().size();
            assertThatThrownBy(() -> create(backend, catalog, "pve1", 1))
                    .isInstanceOf(BackendException.class)
                    .hasMessageContaining("storage thick on node pve1 has 10.0 GiB free, the new drives of pve.small"
                            + " (its disks, efi_storage, tpm) needs 30.0 GiB");
            assertThat(cluster.simulator().vms()).hasSize(before);
            create(backend, catalog, "pve2", 0);
        }
    }

    @Test
    void aStorageThatCannotHoldTheDrivesStopsStartupNamingTheKey() {
        assertThat(refused(small(Map.of("disks", "[{\"storage\": \"local\", \"size_gib\": 10}]"))))
                .isEqualTo("--instance-types \"pve.small\": disks[0]: storage local on node pve1 does not hold VM"
                        + " disk images (its content is backup,iso,vztmpl); name a storage with \"Disk image\" in"
                        + " its content");
        assertThat(refused(small(Map.of("disks", "[{\"storage\": \"thick\", \"size_gib\": 50}]"))))
                .isEqualTo("--instance-types \"pve.small\": disks[0]: storage thick on node pve1 holds 40.0 GiB in"
                        + " all; one VM of the type puts 50.0 GiB of new drives on it");
        assertThat(refused(small(Map.of("tpm", "\"nosuch\""))))
                .isEqualTo("--instance-types \"pve.small\": tpm: storage nosuch is not active on node pve1 (or not"
                        + " visible to the API token)");
        assertThat(refused(small(Map.of(
                        "disks",
                        "[{\"storage\": \"local-lvm\", \"size_gib\": 1, \"ssd\": true," + " \"bus\": \"virtio\"}]"))))
                .isEqualTo("--instance-types \"pve.small\": disks[0]: ssd is for scsi disks; Proxmox has no ssd"
                        + " option on a virtio disk");
        assertThat(refused(small(Map.of("efi_storage", "\"local-lvm\""))))
                .isEqualTo("--instance-types \"pve.small\": efi_storage is for UEFI guests; it needs \"bios\":"
                        + " \"ovmf\"");
        assertThat(refused(small(Map.of("bios", "\"uefi\""))))
                .isEqualTo("--instance-types \"pve.small\": bios must be \"seabios\" or \"ovmf\" (UEFI), got"
                        + " \"uefi\"");
        assertThat(refused(small(Map.of("disks", "[{\"storage\": \"local-lvm\"}]"))))
                .isEqualTo("--instance-types \"pve.small\": disks[0]: size_gib must be a whole number from 1 to"
                        + " 131072 (it is missing)");
    }

    private String refused(InstanceTypeCatalog catalog) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
        return SimulatorBackends.refusal(() -> start(catalog));
    }
}
