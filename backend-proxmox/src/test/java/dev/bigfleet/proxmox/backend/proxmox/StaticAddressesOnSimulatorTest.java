package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
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
 * Static addresses from a NIC's {@code addresses} pool, read back from the clones' configs through
 * the API: each VM the lowest free address, kept on it as a description line and a tag and written
 * as {@code ipconfig0} and {@code nameserver} for the template's cloud-init drive; a restarted
 * provider hands out none of them again; a Delete frees its VM's address; a pool that ran dry fails
 * the Create naming the key; a template that could not deliver the address stops startup.
 */
class StaticAddressesOnSimulatorTest {
    private static final String NETWORKS = "[{\"bridge\": \"vmbr0\", \"addresses\": {\"cidr\": \"10.20.0.0/24\","
            + " \"range\": \"10.20.0.10-10.20.0.12\", \"gateway\": \"10.20.0.1\", \"dns\": [\"10.20.0.2\"]}}]";
    private static final InstanceTypeCatalog CATALOG =
            SimulatorBackends.catalog(SimulatorBackends.type("pve.small", Map.of("networks", NETWORKS)));

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

    private void startCluster(boolean cloudInitDrive) {
        TemplateSpec template = TemplateSpec.of(TestingProxmoxCluster.TEMPLATE, "pve1");
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .template(cloudInitDrive ? template.withCloudInit() : template)
                .start();
    }

    private ProxmoxBackend backend() throws Exception {
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                List.of("pve1", "pve2"),
                CATALOG,
                List.of(
                        new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 4, Map.of(), Map.of()),
                        new Offering("pve.small", "pve2", CapacityType.ON_DEMAND, 4, Map.of(), Map.of())),
                Map.of(),
                new CountingRecorder());
    }

    private static String id(int n) {
        return "proxmox/OnDemand/pve.small/pve1/00" + n;
    }

    private static CreatedVm create(ProxmoxBackend backend, int n) throws BackendException {
        return backend.cloneAndStart(
                new CloneSpec(id(n), CATALOG.find("pve.small").orElseThrow(), "pve1", Map.of()), forMachine(id(n)));
    }

    private VmView vm(CreatedVm c) {
        return cluster.simulator().vm((int) c.vmid()).orElseThrow();
    }

    @Test
    void eachVmGetsTheLowestFreeAddressKeptOnItAndWrittenForItsCloudInitDrive() throws Exception {
        startCluster(true);
        CreatedVm first;
        CreatedVm second;
        try (ProxmoxBackend backend = backend()) {
            first = create(backend, 0);
            second = create(backend, 1);
        }
        assertThat(vm(first).config())
                .containsEntry("ipconfig0", "ip=10.20.0.10/24,gw=10.20.0.1")
                .containsEntry("nameserver", "10.20.0.2");
        assertThat(vm(first).tags()).contains("bigfleet-ip-10.20.0.10");
        assertThat(vm(first).config().get("description").toString())
                .contains("bigfleet-address=net0 10.20.0.10/24 gw=10.20.0.1 dns=10.20.0.2");
        assertThat(vm(second).config()).containsEntry("ipconfig0", "ip=10.20.0.11/24,gw=10.20.0.1");

        try (ProxmoxBackend restarted = backend()) {
            CreatedVm third = create(restarted, 2);
            assertThat(vm(third).config())
                    .as("a restarted provider reads the addresses taken from the cluster")
                    .containsEntry("ipconfig0", "ip=10.20.0.12/24,gw=10.20.0.1");
            assertThatThrownBy(() -> create(restarted, 3))
                    .isInstanceOf(BackendException.class)
                    .hasMessageContaining("networks[0]: addresses: every one of the 3 addresses of"
                            + " 10.20.0.10-10.20.0.12 in 10.20.0.0/24 is taken");

            restarted.destroy(new VmTarget(id(1), second.node(), second.vmid()), forMachine(id(1)));
            CreatedVm fourth = create(restarted, 4);
            assertThat(vm(fourth).config())
                    .as("the deleted VM's address is free again")
                    .containsEntry("ipconfig0", "ip=10.20.0.11/24,gw=10.20.0.1");
        }
    }

    @Test
    void anAgentTypeWhoseTemplateHasNoCloudInitDriveStopsStartupSayingHowToDeliverTheAddress() {
        startCluster(false);
        assertThat(SimulatorBackends.refusal(this::backend))
                .startsWith("--instance-types \"pve.small\": networks[0]: addresses: a static address reaches the"
                        + " guest through cloud-init: give the type bootstrap \"nocloud\"");
    }

    @Test
    void aPoolThatIsNotASubnetStopsStartupNamingTheKey() {
        startCluster(true);
        assertThat(SimulatorBackends.refusal(() -> SimulatorBackends.backend(
                        cluster,
                        "proxmox",
                        List.of("pve1"),
                        SimulatorBackends.catalog(SimulatorBackends.type(
                                "pve.small",
                                Map.of(
                                        "networks",
                                        "[{\"bridge\": \"vmbr0\", \"addresses\": {\"cidr\": \"10.20.0.5/24\"}}]"))),
                        List.of(new Offering("pve.small", "pve1", CapacityType.ON_DEMAND, 1, Map.of(), Map.of())),
                        Map.of(),
                        new CountingRecorder())))
                .isEqualTo("--instance-types \"pve.small\": networks[0]: addresses: cidr 10.20.0.5/24 has host bits"
                        + " set; the subnet is 10.20.0.0/24");
    }
}
