package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A guest command of a Configure carried out in the guest and its answer cut on the way back,
 * through the whole provider on its real backend against the simulator: the command creating the
 * empty 0600 file the blob goes into is sent again (it does no harm twice) and the machine is
 * CONFIGURED; the bootstrap hook is never sent twice, so a cut hook fails the Configure.
 */
@Tag("recovery")
class CutGuestCommandOnSimulatorTest {
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);
    /** The command creating the empty 0600 file. */
    private static final String CREATE_FILE = "/bin/sh -c umask 077.*";
    /** The default bootstrap hook on the default path. */
    private static final String HOOK = "/bin/sh /run/bigfleet-bootstrap";

    private static int vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Integer.parseInt(ref.substring(ref.lastIndexOf('/') + 1));
    }

    private static long sent(TestingProxmoxCluster cluster, int vmid, String regex) {
        return cluster.simulator().vm(vmid).orElseThrow().execs().stream()
                .filter(e -> e.commandLine().matches(regex))
                .count();
    }

    private static long cut(TestingProxmoxCluster cluster) {
        return cluster.simulator().requests().stream()
                .filter(r -> r.path().endsWith("/agent/exec"))
                .filter(r -> r.status() == 0)
                .count();
    }

    @Test
    void aCutRequestCreatingTheBlobFileIsSentAgainAndTheMachineIsConfigured() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder().start();
                TestingProvider provider =
                        TestingProvider.builder().proxmox(cluster).seedCount(2).build()) {
            LifecycleClient client = provider.client();
            String id = client.list().get(0).getId();
            client.create(id);
            int vmid = vmid(client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT));
            cluster.simulator().faults().dropExecResponses(CREATE_FILE, 1);

            client.configure(id, "prod-1", BLOB);

            Machine configured = client.awaitState(id, MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            assertThat(configured.getLastError()).isEmpty();
            assertThat(cut(cluster)).as("the exec answers cut").isEqualTo(1);
            assertThat(sent(cluster, vmid, CREATE_FILE))
                    .as("creating the file, sent again")
                    .isEqualTo(2);
            assertThat(sent(cluster, vmid, HOOK)).as("the hook").isEqualTo(1);
            assertThat(cluster.simulator().guest(vmid).read("/run/bigfleet-bootstrap"))
                    .as("the blob file, deleted")
                    .isEmpty();
        }
    }

    @Test
    void aCutHookIsNeverSentTwiceAndFailsTheConfigure() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder().start();
                TestingProvider provider =
                        TestingProvider.builder().proxmox(cluster).seedCount(2).build()) {
            LifecycleClient client = provider.client();
            String id = client.list().get(0).getId();
            client.create(id);
            int vmid = vmid(client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT));
            cluster.simulator().faults().dropExecResponses(HOOK, 1);

            client.configure(id, "prod-1", BLOB);

            Machine failed = client.awaitState(id, MachineState.MACHINE_STATE_FAILED, WAIT);
            assertThat(failed.getLastError()).contains("run " + HOOK + ": agent exec: POST agent/exec:");
            assertThat(cut(cluster)).as("the exec answers cut").isEqualTo(1);
            assertThat(sent(cluster, vmid, HOOK)).as("the hook").isEqualTo(1);
        }
    }
}
