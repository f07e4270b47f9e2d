package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.ForeignVm;
import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A Proxmox cluster that does not hold still, on the real backend against the simulator: a node in
 * HA maintenance mode, offline, or a cluster without quorum takes no new clone (the Create fails
 * fast naming the node and why) while the other nodes keep serving, and takes clones again once it
 * is back; a VM migrated while IDLE and while CONFIGURED is followed to its new node, drained and
 * deleted there, and its VMID, reused by someone else's VM on that node, is never adopted.
 */
@Tag("recovery")
class LivingClusterOnSimulatorTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** How long the backend keeps a reading of the nodes' status (5 s): a heal is seen after it. */
    private static final long NODE_READING_MILLIS = 5_500;

    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);

    private static TestingProvider provider(TestingProxmoxCluster cluster) throws Exception {
        return TestingProvider.builder()
                .proxmox(cluster)
                .seedCount(8)
                .flags("--failed-retention", "1s", "--reconcile-interval", "1s")
                .build();
    }

    private static List<String> onNode(LifecycleClient client, String node) {
        return client.list().stream()
                .filter(m -> m.getZone().equals(node))
                .map(Machine::getId)
                .sorted()
                .toList();
    }

    private static String vmNode(Machine m) {
        String ref = m.getHost().getRef();
        return ref.substring(0, ref.indexOf('/'));
    }

    private static int vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Integer.parseInt(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** With {@code pve2} made unable to take a clone: its Create fails saying why, pve1's goes on; then it heals. */
    private static void pve2Refuses(
            TestingProxmoxCluster cluster, Consumer<Boolean> broken, String why, boolean nodeRowSaysSo)
            throws Exception {
        try (TestingProvider provider = provider(cluster)) {
            LifecycleClient client = provider.client();
            String onPve1 = onNode(client, "pve1").get(0);
            String onPve2 = onNode(client, "pve2").get(0);
            broken.accept(true);
            try {
                client.create(onPve2);
                Machine failed = client.awaitState(onPve2, MachineState.MACHINE_STATE_FAILED, WAIT);
                assertThat(failed.getLastError())
                        .contains("node pve2 takes no new VM")
                        .contains(why);
                assertThat(cluster.clonesByMachine()).doesNotContainKey(onPve2);
                if (nodeRowSaysSo) {
                    await().atMost(WAIT).untilAsserted(() -> {
                        assertThat(client.metric("bigfleet_proxmox_node_schedulable{node=\"pve2\"}"))
                                .hasValue(0.0);
                        assertThat(client.adminApi("/api/v1/nodes"))
                                .contains("\"schedulable\":false")
                                .contains(why);
                    });
                    assertThat(client.metric("bigfleet_proxmox_node_schedulable{node=\"pve1\"}"))
                            .hasValue(1.0);
                    client.create(onPve1);
                    client.awaitState(onPve1, MachineState.MACHINE_STATE_IDLE, WAIT);
                }
            } finally {
                broken.accept(false);
            }
            String next = client.awaitReplaced(onPve2, WAIT).getId();
            Thread.sleep(NODE_READING_MILLIS);
            client.create(next);
            Machine created = client.awaitState(next, MachineState.MACHINE_STATE_IDLE, WAIT);
            assertThat(vmNode(created)).isEqualTo("pve2");
        }
    }

    @Test
    void aNodeInMaintenanceTakesNoCloneWhileTheOthersServeAndTakesThemAgainAfterwards() throws Exception {
        try (TestingProxmoxCluster cluster =
                TestingProxmoxCluster.builder().roomy().nodes("pve1", "pve2").start()) {
            pve2Refuses(
                    cluster, on -> cluster.simulator().faults().nodeMaintenance("pve2", on), "maintenance mode", true);
        }
    }

    @Test
    void anOfflineNodeTakesNoClone() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                .roomy()
                .nodes("pve1", "pve2", "pve3")
                .start()) {
            pve2Refuses(cluster, on -> cluster.simulator().faults().nodeOnline("pve2", !on), "it is offline", true);
        }
    }

    @Test
    void aClusterWithoutQuorumTakesNoClone() throws Exception {
        try (TestingProxmoxCluster cluster =
                TestingProxmoxCluster.builder().roomy().nodes("pve1", "pve2").start()) {
            pve2Refuses(cluster, on -> cluster.simulator().faults().quorum(!on), "no quorum", false);
        }
    }

    @Test
    void vmsMigratedWhileIdleAndConfiguredAreFollowedDrainedAndDeletedOnTheirNewNodeAndTheirVmidsNotReadopted()
            throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder()
                        .roomy()
                        .nodes("pve1", "pve2")
                        .start();
                TestingProvider provider = provider(cluster)) {
            LifecycleClient client = provider.client();
            List<String> ids = onNode(client, "pve1").subList(0, 2);
            ids.forEach(client::create);
            client.awaitAll(ids, MachineState.MACHINE_STATE_IDLE, WAIT);
            String idle = ids.get(0);
            String configured = ids.get(1);
            client.configure(configured, "prod-1", BLOB);
            client.awaitState(configured, MachineState.MACHINE_STATE_CONFIGURED, WAIT);

            for (String id : ids) {
                cluster.simulator().faults().migrateVm(vmid(client.get(id)), "pve2");
            }
            await().atMost(WAIT).untilAsserted(() -> {
                for (String id : ids) {
                    assertThat(vmNode(client.get(id))).as("host of %s", id).isEqualTo("pve2");
                }
            });
            assertThat(client.get(idle).getZone()).as("its offering's zone").isEqualTo("pve1");
            assertThat(client.metric("bigfleet_proxmox_machines_moved")).hasValue(2.0);

            int configuredVm = vmid(client.get(configured));
            client.drain(configured, 5);
            client.awaitState(configured, MachineState.MACHINE_STATE_IDLE, WAIT);
            assertThat(cluster.simulator().vm(configuredVm).orElseThrow().execs())
                    .as("drained in its guest on the new node")
                    .anyMatch(e -> e.commandLine().contains("kubectl drain"));
            List<Integer> freed = new ArrayList<>();
            for (String id : ids) {
                int vm = vmid(client.get(id));
                client.delete(id);
                client.awaitState(id, MachineState.MACHINE_STATE_SPECULATIVE, WAIT);
                assertThat(cluster.simulator().vm(vm))
                        .as("VM of %s destroyed on pve2", id)
                        .isEmpty();
                freed.add(vm);
            }
            assertThat(client.metric("bigfleet_proxmox_machines_moved")).hasValue(0.0);

            // the freed VMID taken by someone else's VM, on the node ours had moved to
            int reused = freed.get(0);
            cluster.simulator()
                    .faults()
                    .createForeignVm(ForeignVm.of(reused, "pve2")
                            .withPower(PowerState.RUNNING)
                            .withDescription("someone else's VM"));
            Thread.sleep(4_000); // a few reconcile passes (--reconcile-interval 1s)
            assertThat(cluster.simulator().vm(reused))
                    .as("the VM that reused the VMID is left alone")
                    .hasValueSatisfying(v -> assertThat(v.running()).isTrue());
            assertThat(client.list())
                    .as("no machine adopts it")
                    .noneMatch(m -> m.getHost().getRef().equals("pve2/" + reused));
            for (String id : ids) {
                assertThat(client.get(id).getState()).isEqualTo(MachineState.MACHINE_STATE_SPECULATIVE);
            }
        }
    }
}
