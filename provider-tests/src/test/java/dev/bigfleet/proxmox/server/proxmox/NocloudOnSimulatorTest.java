package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.StorageView;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.Launch;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingKubernetesCluster;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A nocloud instance type through the whole provider on the simulator, with guests whose
 * qemu-guest-agent blocks {@code guest-exec} (as RHEL 10's does) and a workload cluster's API
 * (fabric8's mock server): Create → Configure → CONFIGURED with cloud-init in the guest reading the
 * blob from the seed, the seed gone from storage as soon as the node is Ready, Drain and Delete
 * through the cluster's API; a provider killed while a Configure waits for its node comes back with
 * that machine FAILED and no seed left on storage.
 */
@Tag("recovery")
class NocloudOnSimulatorTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String JOINED = "/var/lib/bigfleet-joined-as";
    /** The user-data: records the name the node joins as, which the test's kubelet registers. */
    private static final byte[] BLOB = ("#!/bin/sh\nhostname > " + JOINED + "\n").getBytes(StandardCharsets.UTF_8);
    /** A blob whose node never registers: the kubelet stand-in ignores it. */
    private static final byte[] NEVER_JOINS = "#!/bin/sh\ntrue\n".getBytes(StandardCharsets.UTF_8);

    private static final String TYPES = """
            {"pve.talos": {"vcpu": 2, "memory_mib": 2048, "bootstrap": "nocloud", "seed_storage": "local"}}
            """;
    private static final String OFFERINGS = """
            [{"instance_type": "pve.talos", "zone": "pve1", "capacity_type": "on_demand", "count": 3}]
            """;

    @TempDir
    Path dir;

    private TestingProxmoxCluster cluster;
    private TestingKubernetesCluster workload;
    private final ScheduledExecutorService kubelet = Executors.newSingleThreadScheduledExecutor();
    private final Set<String> registered = ConcurrentHashMap.newKeySet();
    private ScheduledFuture<?> watcher;

    @BeforeEach
    void start() {
        cluster = TestingProxmoxCluster.builder()
                .roomy()
                .nodes("pve1", "pve2")
                .execBlocked()
                .start();
        workload = new TestingKubernetesCluster();
        // the kubelet of every guest: once its user-data ran, its node registers, Ready
        watcher = kubelet.scheduleWithFixedDelay(this::registerJoinedNodes, 100, 100, TimeUnit.MILLISECONDS);
    }

    @AfterEach
    void stop() {
        watcher.cancel(true);
        kubelet.shutdownNow();
        workload.close();
        cluster.close();
    }

    private void registerJoinedNodes() {
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

    private TestingProvider provider(Launch launch) throws Exception {
        Path kubeconfig = workload.kubeconfig(dir.resolve("prod-1.kubeconfig"), "provider-token");
        return TestingProvider.builder()
                .launch(launch)
                .proxmox(cluster)
                .sqliteState(dir.resolve("state.db"))
                .flags(
                        "--instance-types",
                        Files.writeString(dir.resolve("types.json"), TYPES).toString(),
                        "--offerings",
                        Files.writeString(dir.resolve("offerings.json"), OFFERINGS)
                                .toString(),
                        "--cluster-kubeconfig",
                        "prod-1=" + kubeconfig,
                        "--reconcile-interval",
                        "1s")
                .build();
    }

    private List<String> seeds() {
        return cluster.simulator().storage("local", "pve1").map(StorageView::volumes).orElse(List.of()).stream()
                .map(StorageView.VolumeView::volid)
                .filter(v -> v.contains(":iso/bigfleet-seed-"))
                .toList();
    }

    private static int vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Integer.parseInt(ref.substring(ref.indexOf('/') + 1));
    }

    @Test
    void aGuestThatCannotExecJoinsThroughItsSeedAndIsDrainedAndDeletedThroughTheClustersApi() throws Exception {
        try (TestingProvider provider = provider(Launch.IN_THIS_JVM)) {
            LifecycleClient client = provider.client();
            String id = client.list().stream()
                    .map(Machine::getId)
                    .sorted()
                    .findFirst()
                    .orElseThrow();

            client.create(id);
            Machine idle = client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT);
            int vmid = vmid(idle);
            assertThat(cluster.simulator().vm(vmid).orElseThrow().running())
                    .as("stopped until its Configure brings the seed")
                    .isFalse();

            client.configure(id, "prod-1", BLOB);
            client.awaitState(id, MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            String result = cluster.simulator()
                    .guest(vmid)
                    .readFileText("/run/cloud-init/result.json")
                    .orElseThrow();
            assertThat(result).as("cloud-init read its user-data from the seed").contains("DataSourceNoCloud");
            assertThat(registered).hasSize(1);
            assertThat(seeds()).as("no seed outlives its Configure").isEmpty();
            assertThat(cluster.simulator().requests())
                    .as("no guest command is sent to a guest that cannot run one")
                    .noneMatch(r -> r.path().endsWith("/agent/exec"));

            client.drain(id, 30);
            client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT);
            String node = registered.iterator().next();
            assertThat(workload.admin.nodes().withName(node).get())
                    .as("the node was deleted from its cluster")
                    .isNull();
            assertThat(cluster.simulator().vm(vmid).orElseThrow().running()).isFalse();

            client.delete(id);
            client.awaitState(id, MachineState.MACHINE_STATE_SPECULATIVE, WAIT);
            assertThat(cluster.simulator().vm(vmid)).isEmpty();
        }
    }

    @Test
    void aProviderKilledWhileAConfigureWaitsForItsNodeLeavesNoSeedBehind() throws Exception {
        String id;
        try (TestingProvider provider = provider(Launch.OWN_JVM)) {
            LifecycleClient client = provider.client();
            id = client.list().stream().map(Machine::getId).sorted().findFirst().orElseThrow();
            client.create(id);
            client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT);
            client.configure(id, "prod-1", NEVER_JOINS);
            await().atMost(WAIT)
                    .until(() -> !seeds().isEmpty()
                            && cluster.simulator()
                                    .vm(vmid(client.get(id)))
                                    .orElseThrow()
                                    .running());

            provider.killAndRestart();

            Machine failed = client.awaitState(id, MachineState.MACHINE_STATE_FAILED, WAIT);
            assertThat(failed.getLastError()).contains("interrupted");
            // the first reconcile pass removes the seed no Configure uses any more
            await().atMost(WAIT).until(() -> seeds().isEmpty());
        }
    }
}
