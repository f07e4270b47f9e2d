package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.pvesim.StorageSpec;
import dev.bigfleet.proxmox.pvesim.TemplateSpec;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.startup.ConfigException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider refuses to start on three nodes with node-local storage and a single template,
 * with the one line an operator sees: the node that cannot reach the template and the storage.
 */
class LocalStorageStartupRefusalTest {
    private static final String TOKEN_ID = "bigfleet@pve!startup";
    private static final String SECRET = "5ec7e7aa-0000-4e11-b1ab-000000000042";

    @Test
    void aSingleTemplateOnLocalStorageIsRefusedNamingTheNodeAndTheStorage(@TempDir Path dir) throws Exception {
        Path secret = dir.resolve("token");
        Files.writeString(secret, SECRET, StandardCharsets.UTF_8);
        SimulatorConfig config = SimulatorConfig.builder()
                .nodes("pve1", "pve2", "pve3")
                .storage(StorageSpec.local())
                .storage(StorageSpec.localLvm())
                .template(TemplateSpec.of(9001, "pve1").withStorage("local-lvm"))
                .token(TOKEN_ID + "=" + SECRET)
                .tlsDir(dir)
                .build();
        try (PveSimulator sim = PveSimulator.start(config)) {
            Throwable refused = catchThrowable(() -> ProviderMain.start(
                            "--addr",
                            "127.0.0.1:0",
                            "--metrics-addr",
                            "127.0.0.1:0",
                            "--proxmox-api-url",
                            sim.apiUrl().toString(),
                            "--proxmox-token-id",
                            TOKEN_ID,
                            "--proxmox-token-file",
                            secret.toString(),
                            "--proxmox-ca-file",
                            sim.caCertificate().toString(),
                            "--nodes",
                            "pve1,pve2,pve3",
                            "--template-vmid",
                            "9001")
                    .close());
            assertThat(refused).isInstanceOf(ConfigException.class);
            assertThat(refused.getMessage())
                    .doesNotContain("\n")
                    .doesNotContain(SECRET)
                    .startsWith("--template-vmid: instance type pve.large on node pve2: template 9001 is on node pve1"
                            + " and its scsi0 (local-lvm:base-9001-disk-0) is on local-lvm, storage local to pve1 that"
                            + " node pve2 cannot reach");
            assertThat(sim.tasks()).as("nothing was cloned").isEmpty();
        }
    }
}
