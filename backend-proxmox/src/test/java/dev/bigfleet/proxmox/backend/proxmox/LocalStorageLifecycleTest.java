package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.pvesim.NodeSpec;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.StorageView;
import dev.bigfleet.proxmox.pvesim.TaskKind;
import dev.bigfleet.proxmox.pvesim.TaskView;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Creates and Deletes on a three-node cluster whose VM disks are node-local, one template per node. */
class LocalStorageLifecycleTest {
    private static final long GIB = 1L << 30;
    private TestingProxmoxCluster cluster;
    private ProxmoxBackend backend;

    @AfterEach
    void stop() {
        if (backend != null) {
            backend.close();
        }
        cluster.close();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private void start(
            Consumer<dev.bigfleet.proxmox.pvesim.SimulatorConfig.Builder> layout,
            InstanceTypeCatalog catalog,
            Map<String, String> options)
            throws Exception {
        start(SimulatorBackends.THREE_NODES.stream().map(NodeSpec::of).toList(), layout, catalog, options);
    }

    private void start(
            List<NodeSpec> nodes,
            Consumer<dev.bigfleet.proxmox.pvesim.SimulatorConfig.Builder> layout,
            InstanceTypeCatalog catalog,
            Map<String, String> options)
            throws Exception {
        cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .nodes(nodes)
                .pool(POOL)
                .customize(layout)
                .start();
        backend = SimulatorBackends.backend(
                cluster,
                "proxmox",
                SimulatorBackends.THREE_NODES,
                catalog,
                SimulatorBackends.onEachNode("pve.small"),
                options,
                new CountingRecorder());
    }

    private static CloneSpec spec(InstanceTypeCatalog catalog, String node, int index) {
        InstanceType small = catalog.find("pve.small").orElseThrow();
        return new CloneSpec("proxmox/OnDemand/pve.small/" + node + "/00" + index, small, node, Map.of());
    }

    private CreatedVm create(InstanceTypeCatalog catalog, String node, int index) throws Exception {
        CloneSpec s = spec(catalog, node, index);
        return backend.cloneAndStart(s, forMachine(s.machineId()));
    }

    private VmView vm(CreatedVm c) {
        return cluster.simulator().vm((int) c.vmid()).orElseThrow();
    }

    private List<TaskView> clones() {
        return cluster.simulator().tasks().stream()
                .filter(t -> t.type().equals("qmclone"))
                .toList();
    }

    @Test
    void eachNodeClonesItsOwnTemplateChosenByTagsOnItself() throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        start(b -> {}, catalog, Map.of("template-tags", SimulatorBackends.TEMPLATE_TAG));
        for (int i = 0; i < 3; i++) {
            String node = SimulatorBackends.THREE_NODES.get(i);
            CreatedVm c = create(catalog, node, 0);
            assertThat(c.node()).isEqualTo(node);
            assertThat(vm(c).node()).isEqualTo(node);
            assertThat(String.valueOf(vm(c).config().get("scsi0")))
                    .isEqualTo("local-lvm:vm-" + c.vmid() + "-disk-0,size=32G");
        }
        assertThat(clones())
                .extracting(t -> t.node() + ":" + t.id() + ":" + t.exitStatus())
                .containsExactly("pve1:9001:OK", "pve2:9002:OK", "pve3:9003:OK");
        NodeStatus pve2 = backend.nodes().stream()
                .filter(n -> n.name().equals("pve2"))
                .findFirst()
                .orElseThrow();
        assertThat(pve2.storageTotalBytes()).as("pve2's local-lvm").isEqualTo(512 * GIB);
        assertThat(pve2.storageUsedBytes())
                .as("its template and one full clone")
                .isEqualTo(64 * GIB);
    }

    @Test
    void aLinkedCloneSharesItsTemplatesBaseAndItsDeleteLeavesTheTemplate() throws Exception {
        InstanceTypeCatalog catalog = SimulatorBackends.catalog(SimulatorBackends.type(
                "pve.small",
                Map.of("templates", "{\"pve1\":9001,\"pve2\":9002,\"pve3\":9003}", "clone_mode", "\"linked\"")));
        start(b -> {}, catalog, Map.of());
        CreatedVm c = create(catalog, "pve2", 0);
        StorageView lvm = cluster.simulator().storage("local-lvm", "pve2").orElseThrow();
        StorageView.VolumeView disk = lvm.volumes().stream()
                .filter(v -> v.owner() == c.vmid())
                .findFirst()
                .orElseThrow();
        assertThat(disk.linkedFrom()).isEqualTo("local-lvm:base-9002-disk-0");
        assertThat(disk.allocatedBytes())
                .as("a linked clone writes nothing up front")
                .isZero();

        backend.destroy(new VmTarget(spec(catalog, "pve2", 0).machineId(), c.node(), c.vmid()), forMachine("x"));
        assertThat(cluster.simulator().vm((int) c.vmid())).isEmpty();
        assertThat(cluster.simulator().vm(9002))
                .hasValueSatisfying(t -> assertThat(t.template()).isTrue());
        assertThat(cluster.simulator()
                        .storage("local-lvm", "pve2")
                        .orElseThrow()
                        .volumes())
                .extracting(StorageView.VolumeView::volid)
                .containsExactly("local-lvm:base-9002-disk-0");
    }

    @Test
    void aLinkedCloneOfOneSharedTemplateGoesToItsNodeAndItsDeleteLeavesTheTemplate() throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        start(
                b -> b.storage(StorageSpec.cephRbd())
                        .template(TemplateSpec.of(9000, "pve1").withStorage("ceph-vm")),
                catalog,
                Map.of("clone-mode", "linked"));
        CreatedVm c = create(catalog, "pve3", 0);
        assertThat(vm(c).node()).isEqualTo("pve3");
        assertThat(String.valueOf(vm(c).config().get("scsi0")))
                .startsWith("ceph-vm:base-9000-disk-0/vm-" + c.vmid() + "-disk-0");
        assertThat(clones()).extracting(TaskView::node).containsExactly("pve1");
        backend.destroy(new VmTarget(spec(catalog, "pve3", 0).machineId(), c.node(), c.vmid()), forMachine("x"));
        assertThat(cluster.simulator().vm(9000)).isPresent();
        assertThat(cluster.simulator().storage("ceph-vm", "pve1").orElseThrow().volumes())
                .extracting(StorageView.VolumeView::volid)
                .containsExactly("ceph-vm:base-9000-disk-0");
    }

    @Test
    void aFullStorageFailsTheCreateNamingStorageNodeFreeAndNeededBeforeAnythingIsCloned() throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        start(b -> {}, catalog, Map.of("template-tags", SimulatorBackends.TEMPLATE_TAG));
        cluster.simulator().faults().storageCapacity("local-lvm", "pve2", 40 * GIB);
        // storage is read once per reconcile interval: a pass makes the next Create read it again
        backend.describeManaged();
        CloneSpec s = spec(catalog, "pve2", 0);
        try {
            backend.cloneAndStart(s, forMachine(s.machineId()));
            throw new AssertionError("the Create did not fail");
        } catch (BackendException e) {
            assertThat(e.isTransient()).isFalse();
            assertThat(e.getMessage())
                    .isEqualTo(
                            "create: storage local-lvm on node pve2 has 8.0 GiB free, the full clone of template 9002"
                                    + " for pve.small needs 32.0 GiB");
        }
        assertThat(clones()).isEmpty();
        assertThat(cluster.simulator().vms().stream().filter(v -> !v.template()))
                .isEmpty();
    }

    @Test
    void aStorageLockTimeoutIsRetriedWithTheSameVmid() throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        start(b -> {}, catalog, Map.of("template-tags", SimulatorBackends.TEMPLATE_TAG));
        cluster.simulator().faults().storageLockTimeouts("local-lvm", 1);
        CloneSpec s = spec(catalog, "pve1", 0);
        try {
            backend.cloneAndStart(s, forMachine(s.machineId()));
            throw new AssertionError("the Create did not fail");
        } catch (BackendException e) {
            assertThat(e.isTransient())
                    .as("the same call may succeed a moment later")
                    .isTrue();
            assertThat(e.getMessage())
                    .contains("can't lock file '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout");
        }
        assertThat(clones()).hasSize(1);
        CreatedVm c = backend.cloneAndStart(s, forMachine(s.machineId()));
        assertThat(c.vmid()).as("no VMID was burnt").isEqualTo(100);
        assertThat(clones()).hasSize(2);
    }

    @Test
    void theTypesShapeIsWrittenBeforeTheFirstStart() throws Exception {
        InstanceTypeCatalog catalog = SimulatorBackends.catalog(SimulatorBackends.type(
                "pve.small",
                Map.of(
                        "template_tags", "[\"bigfleet-template\"]",
                        "disk_gib", "48",
                        "bridge", "\"vmbr1\"",
                        "vlan", "20",
                        "cpu_type", "\"x86-64-v2-AES\"")));
        start(
                SimulatorBackends.THREE_NODES.stream()
                        .map(n -> NodeSpec.of(n).withBridges("vmbr0", "vmbr1"))
                        .toList(),
                b -> {},
                catalog,
                Map.of());
        CreatedVm c = create(catalog, "pve3", 0);
        VmView v = vm(c);
        assertThat(v.running()).isTrue();
        assertThat(String.valueOf(v.config().get("scsi0"))).isEqualTo("local-lvm:vm-" + c.vmid() + "-disk-0,size=48G");
        assertThat(String.valueOf(v.config().get("net0"))).matches("virtio=[0-9A-F:]{17},bridge=vmbr1,tag=20");
        assertThat(v.config()).containsEntry("cpu", "x86-64-v2-AES");
        assertThat(cluster.simulator().tasks()).extracting(TaskView::type).contains("resize");
    }

    @Test
    void theCloneBulkheadCountsTheNodeThatCopies() throws Exception {
        InstanceTypeCatalog catalog = InstanceTypeCatalog.builtIn(9000);
        start(
                b -> b.storage(StorageSpec.cephRbd())
                        .template(TemplateSpec.of(9000, "pve1").withStorage("ceph-vm")),
                catalog,
                Map.of("max-concurrent-clones-per-node", "1"));
        cluster.simulator().faults().slowTasks(TaskKind.CLONE, 2, Duration.ofMillis(1500));
        CompletableFuture<CreatedVm> onPve2 = CompletableFuture.supplyAsync(() -> call(catalog, "pve2"));
        CompletableFuture<CreatedVm> onPve3 = CompletableFuture.supplyAsync(() -> call(catalog, "pve3"));
        Thread.sleep(800);
        assertThat(clones())
                .as("both copy on pve1, the template's node: one at a time")
                .hasSize(1);
        assertThat(onPve2.get().node()).isEqualTo("pve2");
        assertThat(onPve3.get().node()).isEqualTo("pve3");
        assertThat(clones()).hasSize(2).allSatisfy(t -> assertThat(t.node()).isEqualTo("pve1"));
    }

    private CreatedVm call(InstanceTypeCatalog catalog, String node) {
        try {
            return create(catalog, node, 0);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
