package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.StorageType;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What startup refuses on node-local storage, each with one line naming the choice, the instance
 * type, the node and the reason, before any Create could send a request Proxmox would refuse.
 */
class LocalStorageStartupTest {
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

    private String refused(
            Consumer<dev.bigfleet.proxmox.pvesim.SimulatorConfig.Builder> layout,
            InstanceTypeCatalog catalog,
            Map<String, String> options) {
        cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .pool(POOL)
                .customize(layout)
                .start();
        return SimulatorBackends.refusal(() -> started(catalog, options));
    }

    private ProxmoxBackend started(InstanceTypeCatalog catalog, Map<String, String> options) throws Exception {
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                SimulatorBackends.THREE_NODES,
                catalog,
                SimulatorBackends.onEachNode("pve.small"),
                options,
                new CountingRecorder());
    }

    private static InstanceTypeCatalog small(Map<String, String> settings) {
        return SimulatorBackends.catalog(SimulatorBackends.type("pve.small", settings));
    }

    @Test
    void oneTemplateOnLocalStorageCannotServeTheOtherNodes() {
        String line = refused(b -> {}, InstanceTypeCatalog.builtIn(9001), Map.of());
        assertThat(line)
                .isEqualTo("--template-vmid: instance type pve.small on node pve2: template 9001 is on node pve1 and"
                        + " its scsi0 (local-lvm:base-9001-disk-0) is on local-lvm, storage local to pve1 that node pve2"
                        + " cannot reach; give each node its own template (templates or template_tags,"
                        + " --template-tags) or move its volumes to shared storage");
    }

    @Test
    void anIsoOrCloudInitDriveOnLocalStorageBlocksCrossNodeClonesOfASharedDisk() {
        String iso = refused(
                b -> b.storage(StorageSpec.cephRbd())
                        .template(TemplateSpec.of(9100, "pve1")
                                .withStorage("ceph-vm")
                                .withIso()),
                InstanceTypeCatalog.builtIn(9100),
                Map.of());
        assertThat(iso)
                .contains("on node pve2: template 9100 is on node pve1 and its ide0"
                        + " (local:iso/ubuntu-24.04.1-live-server-amd64.iso) is on local, storage local to pve1");
        cluster.close();
        String cloudInit = refused(
                b -> b.storage(StorageSpec.cephRbd())
                        .template(TemplateSpec.of(9100, "pve1")
                                .withStorage("ceph-vm")
                                .withCloudInitOn("local-lvm")),
                InstanceTypeCatalog.builtIn(9100),
                Map.of());
        assertThat(cloudInit)
                .startsWith(
                        "--template-vmid: instance type pve.small on node pve2: template 9100 is on"
                                + " node pve1 and its ide2 (local-lvm:vm-9100-cloudinit) is on local-lvm, storage local to pve1");
    }

    @Test
    void tagsMustMatchExactlyOneTemplateOnEachNode() {
        String none = refused(b -> {}, InstanceTypeCatalog.builtIn(9000), Map.of("template-tags", "golden"));
        assertThat(none)
                .isEqualTo("--template-tags: instance type pve.small on node pve1: no template on this node"
                        + " carries the tags golden (tag one with them)");
        cluster.close();
        String two = refused(
                b -> b.template(TemplateSpec.of(9012, "pve2")
                        .withStorage("local-lvm")
                        .withTags(SimulatorBackends.TEMPLATE_TAG)),
                small(Map.of("template_tags", "[\"bigfleet-template\"]")),
                Map.of());
        assertThat(two)
                .isEqualTo("--instance-types \"pve.small\": template_tags: instance type pve.small on node"
                        + " pve2: more than one template on this node carries the tags bigfleet-template (9002, 9012); leave"
                        + " them on exactly one");
    }

    @Test
    void aTemplateMapMustNameEveryNodeWithATemplate() {
        String missing = refused(b -> {}, small(Map.of("templates", "{\"pve1\":9001,\"pve2\":9002}")), Map.of());
        assertThat(missing)
                .isEqualTo("--instance-types \"pve.small\": templates: instance type pve.small on node"
                        + " pve3: templates names no template for this node (it names pve1, pve2)");
        cluster.close();
        String notTemplate =
                refused(b -> {}, small(Map.of("templates", "{\"pve1\":9001,\"pve2\":9002,\"pve3\":333}")), Map.of());
        assertThat(notTemplate).contains("on node pve3: template VMID 333 is not in the cluster");
    }

    @Test
    void linkedClonesNeedAStorageThatLinksAndNoCloneStorage() {
        String thick = refused(
                b -> b.storage(StorageSpec.localOf("thick", StorageType.LVM))
                        .template(TemplateSpec.of(9200, "pve1").withStorage("thick"))
                        .template(TemplateSpec.of(9201, "pve2").withStorage("thick"))
                        .template(TemplateSpec.of(9202, "pve3").withStorage("thick")),
                small(Map.of("templates", "{\"pve1\":9200,\"pve2\":9201,\"pve3\":9202}", "clone_mode", "\"linked\"")),
                Map.of());
        assertThat(thick)
                .isEqualTo("--instance-types \"pve.small\": clone_mode: instance type pve.small on node pve1:"
                        + " template 9200's scsi0 is on storage thick (type lvm), which cannot make linked clones (LVM-thin,"
                        + " ZFS, RBD and directory storages can); use full clones for it");
        cluster.close();
        String withStorage = refused(
                b -> {},
                small(Map.of()),
                Map.of("clone-mode", "linked", "clone-storage", "local-lvm", "template-tags", "k8s"));
        assertThat(withStorage).startsWith("--clone-mode: linked clones stay on their template's storage");
    }

    @Test
    void theShapeMustFitTheTemplateAndEveryNode() {
        String tags = "[\"bigfleet-template\"]";
        assertThat(refused(b -> {}, small(Map.of("template_tags", tags, "disk_gib", "16")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": disk_gib: 16 GiB is smaller than template 9001's boot disk"
                        + " scsi0 (32.0 GiB); disks are grown, never shrunk");
        cluster.close();
        assertThat(refused(b -> {}, small(Map.of("template_tags", tags, "bridge", "\"vmbr1\"")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": bridge: node pve1 has no bridge vmbr1 (it has vmbr0), or"
                        + " the token lacks SDN.Use on /sdn/zones/localnetwork/vmbr1");
        cluster.close();
        assertThat(refused(b -> {}, small(Map.of("template_tags", tags, "cpu_type", "\"zen9\"")), Map.of()))
                .startsWith("--instance-types \"pve.small\": cpu_type: node pve1 offers no CPU model \"zen9\"");
    }

    @Test
    void badSettingsNameTheEntryAndTheKey() {
        assertThat(refused(b -> {}, small(Map.of("clone_mode", "\"fast\"")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": clone_mode must be \"full\" or \"linked\", got \"fast\"");
        cluster.close();
        assertThat(refused(b -> {}, small(Map.of("templates", "[9001]")), Map.of()))
                .startsWith(
                        "--instance-types \"pve.small\": templates must be an object of node name to template VMID");
        cluster.close();
        assertThat(refused(b -> {}, small(Map.of("vlan", "20")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": vlan needs bridge (the bridge the tagged NIC is on)");
        cluster.close();
        assertThat(refused(b -> {}, small(Map.of("template_vmid", "9001", "template_tags", "[\"x\"]")), Map.of()))
                .startsWith("--instance-types \"pve.small\": templates, template_tags and template_vmid each choose");
        cluster.close();
        assertThat(refused(b -> {}, small(Map.of("disk_gib", "0")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": disk_gib must be a whole number from 1 to 131072, got 0");
    }

    @Test
    void anEntrysOwnChoiceWinsOverTheFlagsAndTagsWinOverTheVmid() throws Exception {
        cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .pool(POOL)
                .customize(b -> b.storage(StorageSpec.cephRbd())
                        .template(TemplateSpec.of(9000, "pve1").withStorage("ceph-vm")))
                .start();
        try (ProxmoxBackend b =
                started(InstanceTypeCatalog.builtIn(9000), Map.of("template-tags", SimulatorBackends.TEMPLATE_TAG))) {
            assertThat(b.describeManaged()).isEmpty();
        }
        // the entry's own template_vmid (the shared one) wins over --template-tags
        try (ProxmoxBackend b = started(small(Map.of("template_vmid", "9000")), Map.of("template-tags", "nope"))) {
            assertThat(b.describeManaged()).isEmpty();
        }
    }
}
