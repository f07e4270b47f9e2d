package dev.bigfleet.proxmox.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingKubernetesCluster;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Create → CONFIGURED of one machine through the full provider over gRPC against the simulator, on
 * the nocloud path (the clone left stopped, a seed uploaded and attached, the VM booted, cloud-init
 * running the blob, the node waited for through a Kubernetes API) against the guest-agent path (the
 * clone started and its agent waited for, the blob written and run through the agent, the built-in
 * readiness probe), alternating, in one run. Not part of the normal test run:
 *
 * <pre>mvn -B -pl benchmarks -am test -Dtest=NocloudBenchmark -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * Prints a Markdown table and writes it to {@code target/nocloud.md}.
 */
class NocloudBenchmark {
    static final int ROUNDS = 5;
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final String JOINED = "/var/lib/bigfleet-joined-as";
    private static final byte[] AGENT_BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOCLOUD_BLOB =
            ("#!/bin/sh\nhostname > " + JOINED + "\n").getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private final Set<String> registered = ConcurrentHashMap.newKeySet();

    @Test
    void createToConfiguredOnBothPaths() throws Exception {
        ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor();
        try (TestingProxmoxCluster cluster =
                        TestingProxmoxCluster.builder().roomy().nodes("pve1").start();
                TestingKubernetesCluster workload = new TestingKubernetesCluster()) {
            ScheduledFuture<?> watcher =
                    kubelet.scheduleWithFixedDelay(() -> register(cluster, workload), 100, 100, TimeUnit.MILLISECONDS);
            Path kubeconfig = workload.kubeconfig(dir.resolve("prod-1.kubeconfig"), "bench");
            Path types = Files.writeString(dir.resolve("types.json"), """
                    {"pve.agent": {"vcpu": 1, "memory_mib": 1024},
                     "pve.nocloud": {"vcpu": 1, "memory_mib": 1024, "bootstrap": "nocloud", "seed_storage": "local"}}
                    """);
            Path offerings = Files.writeString(
                    dir.resolve("offerings.json"),
                    "[{\"instance_type\": \"pve.agent\", \"zone\": \"pve1\", \"count\": " + ROUNDS + "},"
                            + " {\"instance_type\": \"pve.nocloud\", \"zone\": \"pve1\", \"count\": " + ROUNDS + "}]");
            List<Double> agent = new ArrayList<>();
            List<Double> nocloud = new ArrayList<>();
            try (TestingProvider provider = TestingProvider.builder()
                    .noHttp()
                    .proxmox(cluster)
                    .flags(
                            "--instance-types", types.toString(),
                            "--offerings", offerings.toString(),
                            "--cluster-kubeconfig", "prod-1=" + kubeconfig)
                    .build()) {
                LifecycleClient client = provider.client();
                for (int i = 0; i < ROUNDS; i++) {
                    String suffix = String.format(Locale.ROOT, "/pve1/%03d", i);
                    agent.add(configured(client, "proxmox/OnDemand/pve.agent" + suffix, AGENT_BLOB));
                    nocloud.add(configured(client, "proxmox/OnDemand/pve.nocloud" + suffix, NOCLOUD_BLOB));
                }
            } finally {
                watcher.cancel(true);
            }
            StringBuilder table = new StringBuilder("| round | agent: Create → CONFIGURED, s | nocloud, s | ratio |\n")
                    .append("|---:|---:|---:|---:|\n");
            for (int i = 0; i < ROUNDS; i++) {
                table.append(String.format(
                        Locale.ROOT,
                        "| %d | %.1f | %.1f | %.2f |%n",
                        i + 1,
                        agent.get(i),
                        nocloud.get(i),
                        nocloud.get(i) / agent.get(i)));
            }
            double a = median(agent);
            double n = median(nocloud);
            table.append(String.format(Locale.ROOT, "| median | %.1f | %.1f | **%.2f** |%n", a, n, n / a));
            System.out.println(table);
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "nocloud.md"), table.toString());
        } finally {
            kubelet.shutdownNow();
        }
    }

    private static double configured(LifecycleClient client, String id, byte[] blob) {
        long start = System.nanoTime();
        client.create(id);
        client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT);
        client.configure(id, "prod-1", blob);
        Machine done = client.awaitState(id, MachineState.MACHINE_STATE_CONFIGURED, WAIT);
        assertThat(done.getState()).isEqualTo(MachineState.MACHINE_STATE_CONFIGURED);
        return (System.nanoTime() - start) / 1e9;
    }

    /** The kubelet of every nocloud guest: once its user-data ran, its node registers, Ready. */
    private void register(TestingProxmoxCluster cluster, TestingKubernetesCluster workload) {
        for (VmView vm : cluster.simulator().vms()) {
            if (!vm.running()) {
                continue;
            }
            try {
                Optional<String> joined = cluster.simulator().guest(vm.vmid()).readFileText(JOINED);
                if (joined.isPresent() && registered.add(joined.get().strip())) {
                    workload.node(joined.get().strip(), "True", "KubeletReady", "kubelet is posting ready status");
                }
            } catch (RuntimeException notAGuestYet) {
                // stopped meanwhile, or still booting
            }
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
