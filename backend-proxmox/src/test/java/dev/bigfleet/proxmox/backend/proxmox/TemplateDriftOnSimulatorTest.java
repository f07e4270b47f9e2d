package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Each clone records the template it came from and that template's config digest; once the
 * template's config changes, the VMs cloned before show as drifted (one by one and in all), and a
 * VM cloned after does not.
 */
class TemplateDriftOnSimulatorTest {
    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    @Test
    void aVmClonedBeforeItsTemplateChangedShowsDriftAndOneClonedAfterDoesNot() throws Exception {
        try (TestingProxmoxCluster cluster =
                        TestingProxmoxCluster.builder().pool(POOL).start();
                ProxmoxBackend backend = SimulatorBackends.backend(cluster, "proxmox", new CountingRecorder())) {
            String before = "proxmox/OnDemand/pve.small/pve1/000";
            CreatedVm old = backend.cloneAndStart(
                    new CloneSpec(
                            before, SimulatorBackends.CATALOG.find("pve.small").orElseThrow(), "pve1", Map.of()),
                    forMachine(before));
            String description = cluster.simulator()
                    .vm((int) old.vmid())
                    .orElseThrow()
                    .config()
                    .get("description")
                    .toString();
            assertThat(description).containsPattern("bigfleet-template=9000 [0-9a-f]{40}");

            cluster.simulator().faults().setConfigKeyNotHotplugged(TestingProxmoxCluster.TEMPLATE, "cores", "4");
            backend.describeManaged();
            VmTarget oldVm = new VmTarget(before, old.node(), old.vmid());
            assertThat(backend.templateDrift(oldVm)).contains("template 9000 changed since the clone");
            assertThat(backend.driftedVms()).isEqualTo(1);

            String after = "proxmox/OnDemand/pve.small/pve1/001";
            CreatedVm fresh = backend.cloneAndStart(
                    new CloneSpec(
                            after, SimulatorBackends.CATALOG.find("pve.small").orElseThrow(), "pve1", Map.of()),
                    forMachine(after));
            backend.describeManaged();
            assertThat(backend.templateDrift(new VmTarget(after, fresh.node(), fresh.vmid())))
                    .as("cloned from the changed config")
                    .isEmpty();
            assertThat(backend.driftedVms()).isEqualTo(1);
            backend.destroy(oldVm, forMachine(before));
            backend.describeManaged();
            assertThat(backend.driftedVms()).isZero();
        }
    }
}
