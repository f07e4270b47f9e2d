package dev.bigfleet.proxmox.server.preflight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.ProviderProcess;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bigfleet-proxmox preflight} as its own process, as an operator runs it: Ctrl-C while its
 * VM boots destroys the VM before the process ends, and the exit codes of a problem and of a usage
 * mistake.
 */
@Tag("process")
class PreflightProcessTest {
    @TempDir
    Path dir;

    @Test
    void ctrlCWhileItsVmBootsDestroysTheVmBeforeTheProcessEnds() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .latency(Duration.ofMillis(10))
                .start()) {
            cluster.simulator().faults().agentNeverUpForNewVms(true);
            List<String> args = new ArrayList<>(List.of("preflight", "--live"));
            args.addAll(PreflightSetup.flags(
                    dir, cluster, "pve.small", TestingProxmoxCluster.TEMPLATE, List.of("pve1", "pve2")));
            try (ProviderProcess p = ProviderProcess.start(Launch.OWN_JVM, args)) {
                await().atMost(Duration.ofSeconds(90))
                        .until(() -> cluster.clones().stream().anyMatch(v -> v.power() == PowerState.RUNNING));
                p.interrupt();
                int exit = p.awaitExit(Duration.ofMinutes(2));
                assertThat(exit).as(String.join("\n", p.log())).isNotZero();
                assertThat(cluster.clones()).as("the VM it made is destroyed").isEmpty();
                assertThat(p.stdout() + String.join("\n", p.log())).doesNotContain(TestingProxmoxCluster.SECRET);
            }
        }
    }

    @Test
    void aProblemExitsOneAndAUsageMistakeTwo() throws Exception {
        try (TestingProxmoxCluster cluster =
                TestingProxmoxCluster.builder().roomy().start()) {
            cluster.simulator().faults().storageCapacity("ceph-vm", "pve1", 1L << 30);
            List<String> full = new ArrayList<>(List.of("preflight", "--clone-mode", "full"));
            full.addAll(
                    PreflightSetup.flags(dir, cluster, "pve.small", TestingProxmoxCluster.TEMPLATE, List.of("pve1")));
            try (ProviderProcess p = ProviderProcess.start(Launch.OWN_JVM, full)) {
                assertThat(p.awaitExit(Duration.ofSeconds(90))).isEqualTo(1);
                assertThat(p.stdout()).contains("FAIL", "free space: storage ceph-vm on node pve1 has");
            }
            List<String> mistake = new ArrayList<>(List.of("preflight", "--liv"));
            mistake.addAll(
                    PreflightSetup.flags(dir, cluster, "pve.small", TestingProxmoxCluster.TEMPLATE, List.of("pve1")));
            try (ProviderProcess p = ProviderProcess.start(Launch.OWN_JVM, mistake)) {
                assertThat(p.awaitExit(Duration.ofSeconds(90))).isEqualTo(2);
                assertThat(String.join("\n", p.log())).contains("unknown flag --liv");
            }
        }
    }
}
