package dev.bigfleet.proxmox.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.pvesim.PveSimulator;
import dev.bigfleet.proxmox.pvesim.SimulatorConfig;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.server.ProviderMain;
import dev.bigfleet.proxmox.server.RunningProvider;
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
    private static final String TOKEN_ID = "bigfleet@pve!ctl";
    private static final String SECRET = "c71c71c7-5ec7-4e11-b1ab-000000000001";
    private static final String ID = "proxmox/OnDemand/pve.large/pve1/000";

    @Test
    void drivesAVmThroughItsLifecycle(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(dir.resolve("token"), SECRET + "\n", StandardCharsets.UTF_8);
        Path blob = Files.writeString(dir.resolve("blob"), "echo joined\n", StandardCharsets.UTF_8);
        SimulatorConfig config = SimulatorConfig.builder()
                .nodes("pve1", "pve2")
                .templateVmid(9000)
                .pool("bigfleet")
                .token(TOKEN_ID + "=" + SECRET)
                .tlsDir(dir)
                .latency(Duration.ofMillis(10))
                .build();
        try (PveSimulator sim = PveSimulator.start(config);
                RunningProvider provider = ProviderMain.start(
                        "--addr",
                        "127.0.0.1:0",
                        "--metrics-addr",
                        "",
                        "--proxmox-backend",
                        "proxmox",
                        "--proxmox-api-url",
                        sim.apiUrl().toString(),
                        "--proxmox-token-id",
                        TOKEN_ID,
                        "--proxmox-token-file",
                        secret.toString(),
                        "--proxmox-ca-file",
                        sim.caCertificate().toString(),
                        "--proxmox-pool",
                        "bigfleet",
                        "--nodes",
                        "pve1,pve2",
                        "--seed-count",
                        "4",
                        "--reconcile-interval",
                        "0")) {
            Ctl ctl = new Ctl("--addr", "127.0.0.1:" + provider.grpcPort());

            assertThat(ctl.run("create", ID).exit()).isZero();
            Lifecycle.awaitState(ctl, ID, "IDLE", Duration.ofSeconds(60));
            List<VmView> clones = clones(sim);
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
            assertThat(clones(sim)).isEmpty();
        }
    }

    private static List<VmView> clones(PveSimulator sim) {
        return sim.vms().stream().filter(v -> !v.template()).toList();
    }
}
