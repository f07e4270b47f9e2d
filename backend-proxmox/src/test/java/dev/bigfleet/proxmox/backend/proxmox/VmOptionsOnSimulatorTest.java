package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmBinding;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An instance type's {@code numa}, {@code onboot} and {@code tags}, read back from the clone's
 * config through the API: the type's tags sit beside the provider's markers and stay through a
 * binding; a tag of the provider's own or a value of the wrong kind stops startup naming the key.
 * {@code hugepages} and {@code cpu_affinity}, which only root@pam may write, are required of the
 * template, whose clones inherit them.
 */
class VmOptionsOnSimulatorTest {
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
        return start(catalog, Map.of());
    }

    /** With {@code template} written on template 9000 first, as an administrator's {@code qm set}. */
    private ProxmoxBackend start(InstanceTypeCatalog catalog, Map<String, String> template) throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        template.forEach((k, v) -> cluster.simulator().faults().setConfigKeyNotHotplugged(9000, k, v));
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                List.of("pve1", "pve2"),
                catalog,
                List.of(
                        new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 2, Map.of(), Map.of()),
                        new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 2, Map.of(), Map.of())),
                Map.of(),
                new CountingRecorder());
    }

    @Test
    void numaOnbootAndTheTypesTagsAreOnTheCloneAndTheTagsOutliveABinding() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of("numa", "true", "onboot", "true", "tags", "[\"Team-A\", \"gpu\"]"));
        try (ProxmoxBackend backend = start(catalog)) {
            String id = "proxmox/OnDemand/pve.small/pve1/000";
            CreatedVm c = backend.cloneAndStart(
                    new CloneSpec(id, catalog.find("pve.small").orElseThrow(), "pve1", Map.of()), forMachine(id));
            VmView v = cluster.simulator().vm((int) c.vmid()).orElseThrow();
            assertThat(v.config()).containsEntry("numa", 1).containsEntry("onboot", 1);
            assertThat(v.tags()).contains("team-a", "gpu", "bigfleet").anyMatch(t -> t.startsWith("bigfleet-m-"));

            VmTarget target = new VmTarget(id, c.node(), c.vmid());
            backend.bindings()
                    .orElseThrow()
                    .recordBinding(target, VmBinding.of("cluster-1", Instant.now(), Map.of()), forMachine(id));
            assertThat(cluster.simulator().vm((int) c.vmid()).orElseThrow().tags())
                    .as("the binding's tag joins the type's, which stay")
                    .contains("team-a", "gpu", Markers.BOUND_TAG);
        }
    }

    @Test
    void aTypeThatSetsNoneOfThemLeavesTheTemplatesValues() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of());
        try (ProxmoxBackend backend = start(catalog)) {
            String id = "proxmox/OnDemand/pve.small/pve2/000";
            CreatedVm c = backend.cloneAndStart(
                    new CloneSpec(id, catalog.find("pve.small").orElseThrow(), "pve2", Map.of()), forMachine(id));
            VmView v = cluster.simulator().vm((int) c.vmid()).orElseThrow();
            assertThat(v.config()).doesNotContainKeys("numa", "onboot");
        }
    }

    @Test
    void aTagOfTheProvidersOwnOrAValueOfTheWrongKindStopsStartupNamingTheKey() {
        assertThat(refused(small(Map.of("tags", "[\"bigfleet-bound\"]"))))
                .isEqualTo("--instance-types \"pve.small\": tags: \"bigfleet-bound\" is the provider's own (bigfleet"
                        + " and every tag starting bigfleet- mark its VMs and their bindings)");
        assertThat(refused(small(Map.of("tags", "[\"no spaces\"]"))))
                .isEqualTo("--instance-types \"pve.small\": tags: \"no spaces\" is not a Proxmox tag");
        assertThat(refused(small(Map.of("numa", "1"))))
                .isEqualTo("--instance-types \"pve.small\": numa must be true or false, got 1");
        assertThat(refused(small(Map.of("onboot", "\"yes\""))))
                .isEqualTo("--instance-types \"pve.small\": onboot must be true or false, got \"yes\"");
    }

    @Test
    void hugepagesAndCpuAffinityAreRequiredOfTheTemplateWhoseClonesInheritThem() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of("hugepages", "2", "cpu_affinity", "\"0-3,8\""));
        try (ProxmoxBackend backend = start(catalog, Map.of("hugepages", "2", "numa", "1", "affinity", "0-3,8"))) {
            String id = "proxmox/OnDemand/pve.small/pve1/000";
            CreatedVm c = backend.cloneAndStart(
                    new CloneSpec(id, catalog.find("pve.small").orElseThrow(), "pve1", Map.of()), forMachine(id));
            assertThat(cluster.simulator().vm((int) c.vmid()).orElseThrow().config())
                    .containsEntry("hugepages", "2")
                    .containsEntry("affinity", "0-3,8");
        }
    }

    @Test
    void aCreateOnANodeWithoutTheHugepagesFailsWithProxmoxsWords() throws Exception {
        InstanceTypeCatalog catalog = small(Map.of("hugepages", "1024", "numa", "true"));
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .node(dev.bigfleet.proxmox.pvesim.NodeSpec.of("pve1").withHugepages(Map.of(1024, 6L)))
                .node(dev.bigfleet.proxmox.pvesim.NodeSpec.of("pve2").withHugepages(Map.of(2, 1L << 16)))
                .start();
        cluster.simulator().faults().setConfigKeyNotHotplugged(9000, "hugepages", "1024");
        try (ProxmoxBackend backend = SimulatorBackends.backend(
                cluster,
                "proxmox",
                List.of("pve1", "pve2"),
                catalog,
                List.of(
                        new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 2, Map.of(), Map.of()),
                        new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 2, Map.of(), Map.of())),
                Map.of(),
                new CountingRecorder())) {
            String fits = "proxmox/OnDemand/pve.small/pve1/000";
            backend.cloneAndStart(
                    new CloneSpec(fits, catalog.find("pve.small").orElseThrow(), "pve1", Map.of()), forMachine(fits));
            String full = "proxmox/OnDemand/pve.small/pve1/001";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.cloneAndStart(
                            new CloneSpec(full, catalog.find("pve.small").orElseThrow(), "pve1", Map.of()),
                            forMachine(full)))
                    .as("4 GiB of 1 GiB pages: 4 of the node's 6 are taken")
                    .hasMessageContaining("hugepage allocation failed");
            String other = "proxmox/OnDemand/pve.small/pve2/000";
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.cloneAndStart(
                            new CloneSpec(other, catalog.find("pve.small").orElseThrow(), "pve2", Map.of()),
                            forMachine(other)))
                    .hasMessageContaining("your system doesn't support hugepages of 1024 MB");
        }
    }

    @Test
    void aTemplateWithoutTheHugepagesOrAffinityTheTypeNeedsStopsStartupSayingHowToSetIt() {
        assertThat(refused(small(Map.of("hugepages", "1024")), Map.of("numa", "1")))
                .isEqualTo("--instance-types \"pve.small\": hugepages: template 9000 has no hugepages, not hugepages"
                        + " 1024; Proxmox lets only root@pam write hugepages, so no API token can set it on a clone:"
                        + " set it on the template (qm set 9000 --hugepages 1024) and every clone inherits it");
        assertThat(refused(small(Map.of("cpu_affinity", "\"0-3\"")), Map.of("affinity", "4-7")))
                .startsWith("--instance-types \"pve.small\": cpu_affinity: template 9000 has affinity 4-7, not"
                        + " affinity 0-3;");
        assertThat(refused(small(Map.of("hugepages", "2")), Map.of("hugepages", "2")))
                .as("qemu-server starts no VM with hugepages and without NUMA")
                .startsWith("--instance-types \"pve.small\": hugepages: Proxmox starts a VM with hugepages only with"
                        + " NUMA");
        assertThat(refused(small(Map.of("hugepages", "\"2\"")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": hugepages must be 2, 1024 or \"any\", got \"2\"");
        assertThat(refused(small(Map.of("cpu_affinity", "\"all\"")), Map.of()))
                .isEqualTo("--instance-types \"pve.small\": cpu_affinity \"all\" is not a list of host cores (e.g."
                        + " \"0-3,8\")");
    }

    private String refused(InstanceTypeCatalog catalog) {
        return refused(catalog, Map.of());
    }

    private String refused(InstanceTypeCatalog catalog, Map<String, String> template) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
        return SimulatorBackends.refusal(() -> start(catalog, template));
    }
}
