package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two providers with different labels share a cluster without seeing or touching each other's VMs. */
class TwoProvidersOneClusterTest {
    private TestingProxmoxCluster cluster;

    @BeforeEach
    void start() {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    @Test
    void eachProviderSeesAndActsOnItsOwnVmsOnly() throws Exception {
        assertSeparate("east", "west");
    }

    @Test
    void labelsWhoseTagsCollideAreStillTellApartByTheDescription() throws Exception {
        // both labels become the tag bigfleet-p-team-a
        assertSeparate("Team.A", "team.a");
    }

    private void assertSeparate(String labelA, String labelB) throws Exception {
        try (ProxmoxBackend a = SimulatorBackends.backend(cluster, labelA, new CountingRecorder());
                ProxmoxBackend b = SimulatorBackends.backend(cluster, labelB, new CountingRecorder())) {
            String idA = labelA + "/OnDemand/pve.small/pve1/000";
            String idB = labelB + "/OnDemand/pve.small/pve1/000";
            CreatedVm vmA = a.cloneAndStart(SimulatorBackends.clone(idA, "pve1"), forMachine(idA));
            CreatedVm vmB = b.cloneAndStart(SimulatorBackends.clone(idB, "pve1"), forMachine(idB));

            assertThat(a.describeManaged()).containsExactly(new ManagedVm(Optional.of(idA), "pve1", vmA.vmid(), true));
            assertThat(b.describeManaged()).containsExactly(new ManagedVm(Optional.of(idB), "pve1", vmB.vmid(), true));

            // B holding a stale ref to A's VMID, under either machine id, may not destroy it: A's VM
            // there proves B's machine has no VM there any more, so the Delete has nothing to do
            cluster.simulator().clearRequests();
            b.destroy(new VmTarget(idB, "pve1", vmA.vmid()), forMachine(idB));
            b.destroy(new VmTarget(idA, "pve1", vmA.vmid()), forMachine(idA));
            assertThatThrownBy(() -> b.ensureRunning(new VmTarget(idA, "pve1", vmA.vmid()), forMachine(idA)))
                    .isInstanceOf(BackendException.class)
                    .hasMessageContaining("no longer exists (its VMID now belongs to another VM, pve1/" + vmA.vmid()
                            + " (provider \"" + labelA + "\", machine \"" + idA + "\"), which was left untouched)");
            assertThat(cluster.simulator().vm((int) vmA.vmid()))
                    .hasValueSatisfying(v -> assertThat(v.running()).isTrue());
            assertThat(cluster.simulator().requests())
                    .as("A's VM was only read")
                    .allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));

            a.destroy(new VmTarget(idA, "pve1", vmA.vmid()), forMachine(idA));
            assertThat(a.describeManaged()).isEmpty();
            assertThat(b.describeManaged()).hasSize(1);
        }
    }
}
