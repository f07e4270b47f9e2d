package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.server.LifecycleClient;
import dev.bigfleet.proxmox.server.ProcessHarness;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
class FailedRecoveryOnSimulatorTest {
    private static final Duration START = Duration.ofSeconds(90);
    private static final Duration RECOVERY = Duration.ofSeconds(90);
    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);
    private static final String DRAIN = "kubectl drain";

    @TempDir
    Path dir;

    private int grpcPort;
    private int httpPort;

    private String[] args(SimulatedProxmox cluster) throws IOException {
        if (grpcPort == 0) {
            grpcPort = freePort();
            httpPort = freePort();
        }
        List<String> args = new ArrayList<>(List.of(
                "--seed-count",
                "8",
                "--failed-retention",
                "5s",
                "--reconcile-interval",
                "1s",
                "--agent-timeout",
                "2s",
                "--addr",
                "127.0.0.1:" + grpcPort,
                "--metrics-addr",
                "127.0.0.1:" + httpPort,
                "--state",
                dir.resolve("state.db").toString()));
        args.addAll(cluster.providerFlags());
        return args.toArray(String[]::new);
    }

    private static void kill(ProcessHarness provider) throws InterruptedException {
        provider.process.destroyForcibly();
        provider.awaitExit(Duration.ofSeconds(30));
    }

    private static long vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Long.parseLong(ref.substring(ref.lastIndexOf('/') + 1));
    }

    @Test
    void anUnboundFailedMachinesVmIsDestroyedAfterARestartAndTheSlotCreatesAgain() throws Exception {
        try (SimulatedProxmox cluster = SimulatedProxmox.start(dir, Duration.ofMillis(50))) {
            String id;
            ProcessHarness first = ProcessHarness.start(args(cluster));
            try (LifecycleClient client = new LifecycleClient(grpcPort, httpPort)) {
                first.awaitServing(START);
                id = client.list().get(0).getId();
                // the clone is made, but its guest agent never answers: the Create fails with a VM left
                cluster.sim.faults().agentNeverUpForNewVms(true);
                client.create(id);
                Machine failed = client.awaitState(id, MachineState.MACHINE_STATE_FAILED, RECOVERY);
                assertThat(failed.getLastError()).contains("wait for guest agent");
            } finally {
                kill(first);
            }
            cluster.sim.faults().agentNeverUpForNewVms(false);
            List<Integer> leftBehind = cluster.clonesByMachine().get(id);
            assertThat(leftBehind).as("the failed Create's VM").hasSize(1);

            try (ProcessHarness second = ProcessHarness.start(args(cluster));
                    LifecycleClient client = new LifecycleClient(grpcPort, httpPort)) {
                second.awaitServing(START);
                Machine recovered = client.awaitState(id, MachineState.MACHINE_STATE_SPECULATIVE, RECOVERY);
                assertThat(recovered.getLastError()).isEmpty();
                assertThat(cluster.sim.vm(leftBehind.get(0)))
                        .as("its VM is destroyed")
                        .isEmpty();
                assertThat(client.metric("bigfleet_proxmox_failed_recovered_total{kind=\"create\"}"))
                        .hasValue(1.0);

                client.create(id);
                Machine created = client.awaitState(id, MachineState.MACHINE_STATE_IDLE, RECOVERY);
                assertThat(cluster.clonesByMachine().get(id)).containsExactly((int) vmid(created));
            }
        }
    }

    @Test
    void boundFailedMachinesAreDrainedAgainKeptWhileTheDrainFailsAndDestroyedOnlyAfterIt() throws Exception {
        try (SimulatedProxmox cluster = SimulatedProxmox.start(dir, Duration.ofMillis(50))) {
            String kept;
            String lost;
            ProcessHarness first = ProcessHarness.start(args(cluster));
            try (LifecycleClient client = new LifecycleClient(grpcPort, httpPort)) {
                first.awaitServing(START);
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
                        cluster.sim
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
                assertThat(client.get(kept).getLastError()).contains("cleanup attempt 1 failed");
            } finally {
                kill(first);
            }

            try (ProcessHarness second = ProcessHarness.start(args(cluster));
                    LifecycleClient client = new LifecycleClient(grpcPort, httpPort)) {
                second.awaitServing(START);
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
                assertThat(cluster.sim.vm((int) keptVm)).isPresent();
                assertThat(client.get(kept).getState()).isEqualTo(MachineState.MACHINE_STATE_FAILED);

                // a VM destroyed behind the provider's back: its machine soon stops counting
                cluster.sim.faults().destroyVm((int) lostVm);
                await().atMost(RECOVERY)
                        .until(() -> client.get(lost).getHost().getRef().isEmpty());
                await().atMost(RECOVERY)
                        .until(() -> Math.abs(client.metric("bigfleet_proxmox_hourly_cost_usd")
                                                .orElseThrow()
                                        - price)
                                < 1e-9);

                // the budget lets go: the next cleanup drains, then destroys
                cluster.sim.guest((int) keptVm).sh("rm /etc/stand-in/kubectl-drain-fails");
                Machine recovered = client.awaitState(kept, MachineState.MACHINE_STATE_SPECULATIVE, RECOVERY);
                assertThat(recovered.getHost().getRef()).isEmpty();
                assertThat(cluster.sim.vm((int) keptVm)).isEmpty();
                List<RecordedRequest> requests = cluster.sim.requests();
                int lastExec = lastIndex(requests, "POST", "/qemu/" + keptVm + "/agent/exec");
                int destroy = lastIndex(requests, "DELETE", "/qemu/" + keptVm);
                assertThat(lastExec).as("the drain ran").isNotNegative();
                assertThat(destroy).as("destroyed after the drain").isGreaterThan(lastExec);
                client.awaitState(lost, MachineState.MACHINE_STATE_SPECULATIVE, RECOVERY);
                assertThat(client.metric("bigfleet_proxmox_failed_needs_attention"))
                        .hasValue(0.0);
                assertThat(client.metric("bigfleet_proxmox_hourly_cost_usd")).hasValue(0.0);
            }
        }
    }

    private static long drains(SimulatedProxmox cluster, long vmid) {
        return cluster.sim
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
