package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.GuestConsole;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Configure on the real backend ends CONFIGURED only once the node is Ready, as the guest's own
 * kubelet and the node's Ready condition say (the image's kubectl test stand-in answers for the API
 * server): Ready at once (the built-in probe), Ready after a while (the setup kit's ready hook),
 * never Ready (FAILED as bound with the probe's words, then drained before its VM is destroyed), a
 * ready hook the template lacks (a clear error, at once), and an API outage during the wait (ridden
 * out).
 */
@Tag("recovery")
class NodeReadinessOnSimulatorTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** A join the guest's kubeadm stand-in accepts: it leaves /etc/kubernetes/kubelet.conf behind. */
    private static final byte[] JOIN = ("#!/bin/sh\nkubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef"
                    + " --discovery-token-ca-cert-hash sha256:0f1e2d3c4b5a69788796a5b4c3d2e1f0\n")
            .getBytes(StandardCharsets.UTF_8);

    private static final String READY_HOOK = "/usr/local/lib/bigfleet/ready-hook.sh";

    /** Each test's provider has a label of its own, so it never sees another test's VMs. */
    private static final AtomicInteger PROVIDERS = new AtomicInteger();

    private static TestingProxmoxCluster cluster;

    @BeforeAll
    static void start() {
        cluster = TestingProxmoxCluster.builder()
                .roomy()
                .latency(Duration.ofMillis(10))
                .start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static TestingProvider provider(String readyExec, String configureTimeout) throws Exception {
        return TestingProvider.builder()
                .proxmox(cluster)
                .seedCount(2)
                .flags(
                        "--ready-exec",
                        readyExec,
                        "--configure-timeout",
                        configureTimeout,
                        "--failed-retention",
                        "1s",
                        "--provider",
                        "ready" + PROVIDERS.incrementAndGet())
                .build();
    }

    private static Machine created(LifecycleClient client) {
        String id = client.list().get(0).getId();
        client.create(id);
        return client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT);
    }

    private static int vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Integer.parseInt(ref.substring(ref.lastIndexOf('/') + 1));
    }

    private static long probes(int vmid, String what) {
        return cluster.simulator()
                .vm(vmid)
                .map(v -> v.execs().stream()
                        .filter(e -> e.commandLine().contains(what))
                        .count())
                .orElse(0L);
    }

    @Test
    void aNodeReadyAtOnceIsConfiguredWithTheBuiltInProbe() throws Exception {
        try (TestingProvider provider = provider("", "2m")) {
            LifecycleClient client = provider.client();
            Machine m = created(client);
            client.configure(m.getId(), "prod-1", JOIN);
            client.awaitState(m.getId(), MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            assertThat(probes(vmid(m), "jsonpath")).as("the built-in probe ran").isPositive();
        }
    }

    @Test
    void aNodeReadyAfterAWhileIsConfiguredOnlyThen() throws Exception {
        try (TestingProvider provider = provider("/bin/sh," + READY_HOOK, "2m")) {
            LifecycleClient client = provider.client();
            Machine m = created(client);
            cluster.simulator().guest(vmid(m)).nodeNotReady(3);
            client.configure(m.getId(), "prod-1", JOIN);
            client.awaitState(m.getId(), MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            assertThat(probes(vmid(m), READY_HOOK))
                    .as("three NotReady answers, then Ready")
                    .isEqualTo(4);
        }
    }

    @Test
    void aNodeNeverReadyFailsTheConfigureAsBoundAndIsDrainedBeforeItsVmGoes() throws Exception {
        try (TestingProvider provider = provider("/bin/sh," + READY_HOOK, "30s")) {
            LifecycleClient client = provider.client();
            Machine m = created(client);
            int vm = vmid(m);
            cluster.simulator().guest(vm).nodeNotReady(-1);
            client.configure(m.getId(), "prod-1", JOIN);
            Machine failed = client.awaitState(m.getId(), MachineState.MACHINE_STATE_FAILED, WAIT);
            int failedAt = cluster.simulator().requests().size();
            assertThat(failed.getLastError())
                    .contains("did not become Ready")
                    .contains("is not Ready (Ready=False)")
                    .doesNotContain("abcdef.0123456789abcdef");
            client.awaitReplaced(m.getId(), WAIT);
            assertThat(cluster.simulator().vm(vm)).as("its VM is destroyed").isEmpty();
            // the probes ended with the Configure: a guest command after it is the cleanup's drain
            List<RecordedRequest> after = cluster.simulator().requests();
            after = after.subList(Math.min(failedAt, after.size()), after.size());
            int drain = firstIndex(after, "POST", "/qemu/" + vm + "/agent/exec");
            int destroy = firstIndex(after, "DELETE", "/qemu/" + vm);
            assertThat(drain).as("drained after it failed").isNotNegative();
            assertThat(destroy).as("destroyed after the drain").isGreaterThan(drain);
        }
    }

    private static int firstIndex(List<RecordedRequest> requests, String method, String pathEnd) {
        for (int i = 0; i < requests.size(); i++) {
            RecordedRequest r = requests.get(i);
            if (r.method().equals(method) && r.path().endsWith(pathEnd)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aReadyHookTheTemplateLacksFailsTheConfigureAtOnceSayingSo() throws Exception {
        try (TestingProvider provider = provider("/bin/sh,/usr/local/lib/bigfleet/no-such-hook.sh", "2m")) {
            LifecycleClient client = provider.client();
            Machine m = created(client);
            long started = System.nanoTime();
            client.configure(m.getId(), "prod-1", JOIN);
            Machine failed = client.awaitState(m.getId(), MachineState.MACHINE_STATE_FAILED, WAIT);
            assertThat(failed.getLastError())
                    .contains("is missing or not executable")
                    .contains("no-such-hook.sh");
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("not waited for until the Configure timeout")
                    .isLessThan(Duration.ofSeconds(60));
        }
    }

    @Test
    void anApiOutageWhileWaitingForTheNodeIsRiddenOut() throws Exception {
        try (TestingProvider provider = provider("/bin/sh," + READY_HOOK, "3m")) {
            LifecycleClient client = provider.client();
            Machine m = created(client);
            int vm = vmid(m);
            GuestConsole guest = cluster.simulator().guest(vm);
            guest.nodeNotReady(-1);
            client.configure(m.getId(), "prod-1", JOIN);
            await().atMost(WAIT).until(() -> probes(vm, READY_HOOK) >= 2);
            cluster.simulator().refuseConnections();
            try {
                Thread.sleep(8000);
                guest.sh("rm /etc/stand-in/node-not-ready");
                assertThat(client.state(m.getId())).isEqualTo(MachineState.MACHINE_STATE_CONFIGURING);
            } finally {
                cluster.simulator().acceptConnections();
            }
            Machine configured = client.awaitState(m.getId(), MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            assertThat(configured.getLastError()).isEmpty();
            assertThat(List.of(configured.getCluster())).containsExactly("prod-1");
        }
    }
}
