package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bigfleetctl against the provider on its real Proxmox backend, which drives the Proxmox API
 * simulator over HTTPS: the calls clone, bootstrap, drain and destroy a simulated VM.
 */
class CtlAgainstSimulatorTest {
    private static final String ID = "proxmox/OnDemand/pve.large/pve1/000";

    @Test
    void drivesAVmThroughItsLifecycle(@TempDir Path dir) throws Exception {
        Path blob = Files.writeString(dir.resolve("blob"), "echo joined\n", StandardCharsets.UTF_8);
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .nodes("pve1", "pve2")
                        .pool("bigfleet")
                        .latency(Duration.ofMillis(10))
                        .start();
                TestingProvider provider = TestingProvider.builder()
                        .proxmox(cluster)
                        .flags("--proxmox-pool", "bigfleet")
                        .seedCount(4)
                        .noHttp()
                        .build()) {
            PveSimulator sim = cluster.simulator();
            Ctl ctl = new Ctl("--addr", provider.target());

            assertThat(ctl.run("create", ID).exit()).isZero();
            Lifecycle.awaitState(ctl, ID, "IDLE", Duration.ofSeconds(60));
            List<VmView> clones = cluster.clones();
            assertThat(clones).hasSize(1);
            VmView vm = clones.get(0);
            assertThat(vm.pool()).isEqualTo("bigfleet");
            assertThat(vm.running()).isTrue();
            assertThat(ctl.run("get", ID).out()).containsPattern("host +proxmox/pve1/" + vm.vmid());

            assertThat(ctl.run("configure", ID, "--cluster-id", "prod-1", "--blob-file", blob.toString())
                            .exit())
                    .isZero();
            Lifecycle.awaitState(ctl, ID, "CONFIGURED", Duration.ofSeconds(60));
            assertThat(sim.vm(vm.vmid()).orElseThrow().execs())
                    .anyMatch(e -> e.commandLine().equals("/bin/sh /run/bigfleet-bootstrap"));

            assertThat(ctl.run("drain", ID, "--grace", "30s").exit()).isZero();
            Lifecycle.awaitState(ctl, ID, "IDLE", Duration.ofSeconds(60));
            assertThat(sim.vm(vm.vmid()).orElseThrow().execs())
                    .anyMatch(e -> e.commandLine().contains("kubectl drain")
                            && e.commandLine().contains("--timeout=30s"));

            assertThat(ctl.run("delete", ID).exit()).isZero();
            Lifecycle.awaitState(ctl, ID, "SPECULATIVE", Duration.ofSeconds(60));
            assertThat(cluster.clones()).isEmpty();
        }
    }
}
