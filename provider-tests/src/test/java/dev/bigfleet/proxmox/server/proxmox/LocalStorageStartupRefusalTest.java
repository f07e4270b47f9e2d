package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import org.junit.jupiter.api.Test;

/**
 * The provider refuses to start on three nodes with node-local storage and a single template,
 * with the one line an operator sees: the node that cannot reach the template and the storage.
 */
class LocalStorageStartupRefusalTest {
    @Test
    void aSingleTemplateOnLocalStorageIsRefusedNamingTheNodeAndTheStorage() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .nodes("pve1", "pve2", "pve3")
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .template(TemplateSpec.of(9001, "pve1").withStorage("local-lvm"))
                .start()) {
            Throwable refused = catchThrowable(() -> TestingProvider.builder()
                    .proxmox(cluster)
                    .flags("--template-vmid", "9001")
                    .build()
                    .close());
            assertThat(refused).isInstanceOf(ConfigException.class);
            assertThat(refused.getMessage())
                    .doesNotContain("\n")
                    .doesNotContain(TestingProxmoxCluster.SECRET)
                    .startsWith("--template-vmid: instance type pve.large on node pve2: template 9001 is on node pve1"
                            + " and its scsi0 (local-lvm:base-9001-disk-0) is on local-lvm, storage local to pve1 that"
                            + " node pve2 cannot reach");
            assertThat(cluster.simulator().tasks()).as("nothing was cloned").isEmpty();
        }
    }
}
