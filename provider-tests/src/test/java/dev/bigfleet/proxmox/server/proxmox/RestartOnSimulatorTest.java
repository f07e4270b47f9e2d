package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A provider on its real backend and a state file, SIGKILLed in the middle of 20 Creates and 20
 * Deletes against the simulator and started again on the same state: the interrupted transitions
 * go on under their operation ids, so every Create ends IDLE with exactly one VM (a clone already
 * running is adopted, not made twice), every Delete ends SPECULATIVE with its VM gone, and nothing
 * is FAILED or left behind.
 */
@Tag("recovery")
class RestartOnSimulatorTest {
    private static final int EACH = 20;

    @Test
    void aKillInTheMiddleOfCreatesAndDeletesLeavesNothingFailedDuplicatedOrLeaked(@TempDir Path dir) throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        .latency(Duration.ofSeconds(1))
                        .start();
                TestingProvider provider = TestingProvider.builder()
                        .launch(Launch.OWN_JVM)
                        .proxmox(cluster)
                        .seedCount(2 * EACH)
                        .sqliteState(dir.resolve("state.db"))
                        .flags("--reconcile-interval", "2s", "--agent-timeout", "2m")
                        .build()) {
            List<String> creates;
            List<String> deletes;
            List<Integer> clonesInFlight = List.of();
            try {
                LifecycleClient client = provider.client();
                List<String> ids =
                        client.list().stream().map(Machine::getId).sorted().toList();
                deletes = ids.subList(0, EACH);
                creates = ids.subList(EACH, 2 * EACH);
                deletes.forEach(client::create);
                client.awaitAll(deletes, MachineState.MACHINE_STATE_IDLE, Duration.ofMinutes(3));

                creates.forEach(client::create);
                deletes.forEach(client::delete);
                // kill once clones are running and some VMs are being stopped or destroyed
                await().atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> cluster.clones().stream().anyMatch(v -> "clone".equals(v.lock()))
                                && cluster.simulator().tasks().stream()
                                        .anyMatch(t -> t.type().equals("qmstop")
                                                || t.type().equals("qmdestroy")));
                // the instant before the SIGKILL; a clone may finish while the process is reaped
                clonesInFlight = cluster.clones().stream()
                        .filter(v -> "clone".equals(v.lock()))
                        .map(VmView::vmid)
                        .toList();
            } finally {
                provider.kill();
            }
            assertThat(clonesInFlight)
                    .as("clones still running when the provider was killed")
                    .isNotEmpty();

            {
                provider.replica(0).start();
                LifecycleClient client = provider.client();
                Duration finish = Duration.ofMinutes(4);
                client.awaitAll(creates, MachineState.MACHINE_STATE_IDLE, finish);
                client.awaitAll(deletes, MachineState.MACHINE_STATE_SPECULATIVE, finish);

                assertThat(client.byState()).doesNotContainKey(MachineState.MACHINE_STATE_FAILED);
                assertThat(provider.log())
                        .anySatisfy(l -> assertThat(l)
                                .contains("interrupted_transitions_resumed=")
                                .doesNotContain("interrupted_transitions_resumed=0 "));
                Map<String, List<Integer>> vms = cluster.clonesByMachine();
                assertThat(vms.keySet()).as("machines holding VMs").containsExactlyInAnyOrderElementsOf(creates);
                assertThat(vms)
                        .allSatisfy((machine, vmids) ->
                                assertThat(vmids).as("VMs of " + machine).hasSize(1));
                assertThat(vms.values().stream().flatMap(List::stream))
                        .as("the clones the killed provider left running, adopted")
                        .containsAll(clonesInFlight);
                for (String id : creates) {
                    assertThat(client.get(id).getHost().getRef())
                            .endsWith("/" + vms.get(id).get(0));
                }
            }
        }
    }
}
