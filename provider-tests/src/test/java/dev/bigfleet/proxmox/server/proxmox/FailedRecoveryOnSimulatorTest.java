package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FAILED machines recover on the real backend, seen from outside a provider process with a state
 * file and a short {@code --failed-retention}, against the simulator, with a SIGKILL and a restart
 * in the middle: an unbound machine's VM (failed in Create) is destroyed and the slot creates again;
 * bound machines (failed in Drain) keep their VMs, drained again on every cleanup attempt and
 * counted as needing attention while the drain fails; once it succeeds the VM is destroyed, after
 * the drain; a VM destroyed behind the provider's back stops counting in the hourly cost.
 */
@Tag("recovery")
class FailedRecoveryOnSimulatorTest {
    private static final Duration RECOVERY = Duration.ofSeconds(90);
    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);
    private static final String DRAIN = "kubectl drain";

    @TempDir
    Path dir;

    private TestingProvider provider(TestingProxmoxCluster cluster) throws Exception {
        return TestingProvider.builder()
                .launch(Launch.OWN_JVM)
                .proxmox(cluster)
                .seedCount(8)
                .sqliteState(dir.resolve("state.db"))
                .flags("--failed-retention", "5s", "--reconcile-interval", "1s", "--agent-timeout", "2s")
                .build();
    }

    private static long vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Long.parseLong(ref.substring(ref.lastIndexOf('/') + 1));
    }

    @Test
    void anUnboundFailedMachinesVmIsDestroyedAfterARestartAndTheSlotCreatesAgain() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .latency(Duration.ofMillis(50))
                .start()) {
            String id;
            TestingProvider provider = provider(cluster);
            try {
                LifecycleClient client = provider.client();
                id = client.list().get(0).getId();
                // the clone is made, but its guest agent never answers: the Create fails with a VM left
                cluster.simulator().faults().agentNeverUpForNewVms(true);
                client.create(id);
                Machine failed = client.awaitState(id, MachineState.MACHINE_STATE_FAILED, RECOVERY);
                assertThat(failed.getLastError()).contains("wait for guest agent");
            } finally {
                provider.kill();
            }
            cluster.simulator().faults().agentNeverUpForNewVms(false);
            List<Integer> leftBehind = cluster.clonesByMachine().get(id);
            assertThat(leftBehind).as("the failed Create's VM").hasSize(1);

            try (provider) {
                provider.replica(0).start();
                LifecycleClient client = provider.client();
                Machine recovered = client.awaitReplaced(id, RECOVERY);
                assertThat(recovered.getLastError()).isEmpty();
                assertThat(cluster.simulator().vm(leftBehind.get(0)))
                        .as("its VM is destroyed")
                        .isEmpty();
                assertThat(client.metric("bigfleet_proxmox_failed_recovered_total{kind=\"create\"}"))
                        .hasValue(1.0);

                client.create(recovered.getId());
                Machine created = client.awaitState(recovered.getId(), MachineState.MACHINE_STATE_IDLE, RECOVERY);
                assertThat(cluster.clonesByMachine().get(recovered.getId())).containsExactly((int) vmid(created));
            }
        }
    }

    @Test
    void boundFailedMachinesAreDrainedAgainKeptWhileTheDrainFailsAndDestroyedOnlyAfterIt() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .latency(Duration.ofMillis(50))
                .start()) {
            String kept;
            String lost;
            TestingProvider provider = provider(cluster);
            try {
                LifecycleClient client = provider.client();
                List<String> ids =
                        client.list().stream().map(Machine::getId).sorted().toList();
                kept = ids.get(0);
                lost = ids.get(1);
                List<String> both = List.of(kept, lost);
                both.forEach(client::create);
                client.awaitAll(both, MachineState.MACHINE_STATE_IDLE, RECOVERY);
                both.forEach(id -> client.configure(id, "prod-1", BLOB));
                client.awaitAll(both, MachineState.MACHINE_STATE_CONFIGURED, RECOVERY);
                // a PodDisruptionBudget blocks every eviction (the guests' kubectl stand-in refuses)
                for (List<Integer> vms : cluster.clonesByMachine().values()) {
                    for (int vmid : vms) {
                        cluster.simulator()
                                .guest(vmid)
                                .kubectlDrainFails(
                                        1, "error: cannot evict pod as it would violate the pod's disruption budget");
                    }
                }
                both.forEach(id -> client.drain(id, 5));
                client.awaitAll(both, MachineState.MACHINE_STATE_FAILED, RECOVERY);
                await().atMost(RECOVERY)
                        .until(() -> client.metric("bigfleet_proxmox_failed_needs_attention")
                                        .orElse(0)
                                == 2.0);
                // the failure record is marked before the machine's new last_error is published
                await().atMost(RECOVERY)
                        .untilAsserted(() ->
                                assertThat(client.get(kept).getLastError()).contains("cleanup attempt 1 failed"));
            } finally {
                provider.kill();
            }

            try (provider) {
                provider.replica(0).start();
                LifecycleClient client = provider.client();
                assertThat(client.metric("bigfleet_proxmox_failed_needs_attention"))
                        .hasValue(2.0);
                Machine keptNow = client.get(kept);
                Machine lostNow = client.get(lost);
                long keptVm = vmid(keptNow);
                long lostVm = vmid(lostNow);
                double price = keptNow.getPricePerHour();
                assertThat(client.metric("bigfleet_proxmox_hourly_cost_usd").orElseThrow())
                        .isCloseTo(price + lostNow.getPricePerHour(), within(1e-9));

                // drained again after the restart, and still not destroyed while the drain fails
                long drainsBefore = drains(cluster, keptVm);
                await().atMost(RECOVERY).until(() -> drains(cluster, keptVm) > drainsBefore);
                assertThat(cluster.simulator().vm((int) keptVm)).isPresent();
                assertThat(client.get(kept).getState()).isEqualTo(MachineState.MACHINE_STATE_FAILED);

                // a VM destroyed behind the provider's back: its machine soon stops counting
                cluster.simulator().faults().destroyVm((int) lostVm);
                await().atMost(RECOVERY)
                        .until(() -> client.get(lost).getHost().getRef().isEmpty());
                await().atMost(RECOVERY)
                        .until(() -> Math.abs(client.metric("bigfleet_proxmox_hourly_cost_usd")
                                                .orElseThrow()
                                        - price)
                                < 1e-9);

                // the budget lets go: the next cleanup drains, then destroys
                cluster.simulator().guest((int) keptVm).sh("rm /etc/stand-in/kubectl-drain-fails");
                Machine recovered = client.awaitReplaced(kept, RECOVERY);
                assertThat(recovered.getHost().getRef()).isEmpty();
                assertThat(cluster.simulator().vm((int) keptVm)).isEmpty();
                List<RecordedRequest> requests = cluster.simulator().requests();
                int lastExec = lastIndex(requests, "POST", "/qemu/" + keptVm + "/agent/exec");
                int destroy = lastIndex(requests, "DELETE", "/qemu/" + keptVm);
                assertThat(lastExec).as("the drain ran").isNotNegative();
                assertThat(destroy).as("destroyed after the drain").isGreaterThan(lastExec);
                client.awaitReplaced(lost, RECOVERY);
                assertThat(client.metric("bigfleet_proxmox_failed_needs_attention"))
                        .hasValue(0.0);
                assertThat(client.metric("bigfleet_proxmox_hourly_cost_usd")).hasValue(0.0);
            }
        }
    }

    private static long drains(TestingProxmoxCluster cluster, long vmid) {
        return cluster.simulator()
                .vm((int) vmid)
                .map(v -> v.execs().stream()
                        .filter(e -> e.commandLine().contains(DRAIN))
                        .count())
                .orElse(0L);
    }

    private static int lastIndex(List<RecordedRequest> requests, String method, String pathEnd) {
        for (int i = requests.size() - 1; i >= 0; i--) {
            RecordedRequest r = requests.get(i);
            if (r.method().equals(method) && r.path().endsWith(pathEnd)) {
                return i;
            }
        }
        return -1;
    }
}
