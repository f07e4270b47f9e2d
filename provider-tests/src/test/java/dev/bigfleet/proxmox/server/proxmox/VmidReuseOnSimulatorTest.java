package dev.bigfleet.proxmox.server.proxmox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.bigfleet.proxmox.proto.v1alpha1.Machine;
import dev.bigfleet.proxmox.proto.v1alpha1.MachineState;
import dev.bigfleet.proxmox.pvesim.ForeignVm;
import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.testing.LifecycleClient;
import dev.bigfleet.proxmox.testing.TestingProvider;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A machine whose VM was destroyed and whose VMID Proxmox gave to another VM since, through the
 * whole provider on its real backend against the simulator: the other VM is never touched, and it
 * proves the machine's VM gone. A Delete whose destroy's answer an outage hid, and whose VMID went
 * to another provider's VM during the outage, ends SPECULATIVE; a Configure and a Drain fail saying
 * the VM no longer exists, and their FAILED cleanup succeeds: each slot is offered again by a new
 * machine.
 */
@Tag("recovery")
class VmidReuseOnSimulatorTest {
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final byte[] BLOB = "#!/bin/sh\necho join\n".getBytes(StandardCharsets.UTF_8);
    private static final String GONE = "no longer exists (its VMID now belongs to another VM, ";

    private static TestingProvider provider(TestingProxmoxCluster cluster) throws Exception {
        return TestingProvider.builder()
                .proxmox(cluster)
                .seedCount(4)
                // no reconcile pass in between: each machine's fate is its transition's and its cleanup's
                .flags("--failed-retention", "1s", "--reconcile-interval", "1h")
                .build();
    }

    private static String node(Machine m) {
        String ref = m.getHost().getRef();
        return ref.substring(0, ref.indexOf('/'));
    }

    private static int vmid(Machine m) {
        String ref = m.getHost().getRef();
        return Integer.parseInt(ref.substring(ref.lastIndexOf('/') + 1));
    }

    /** What another provider's Create leaves at a VMID: its markers, running. */
    private static ForeignVm anotherProvidersVm(int vmid, String node) {
        String machine = "team-b/OnDemand/pve.small/" + node + "/000";
        return ForeignVm.of(vmid, node)
                .withName("bigfleet-pve-small-team-b-OnDemand-pve-small-" + node + "-000")
                .withTags("bigfleet;bigfleet-p-team-b")
                .withDescription("BigFleet managed VM. Do not edit the lines below.\nbigfleet-provider=team-b\n"
                        + "bigfleet-machine-id=" + machine + "\nbigfleet-operation-id=op-1")
                .withPower(PowerState.RUNNING);
    }

    private static void assertUntouched(TestingProxmoxCluster cluster, int vmid) {
        VmView holder = cluster.simulator().vm(vmid).orElseThrow();
        assertThat(holder.running()).as("the VM that took VMID %d runs", vmid).isTrue();
        assertThat(holder.execs())
                .as("commands run in the VM that took VMID %d", vmid)
                .isEmpty();
        String path = "/nodes/" + holder.node() + "/qemu/" + vmid;
        List<RecordedRequest> touching = cluster.simulator().requests().stream()
                .filter(r -> r.path().equals(path) || r.path().startsWith(path + "/"))
                .filter(r -> !r.method().equals("GET"))
                .toList();
        assertThat(touching).as("requests that act on VMID %d", vmid).isEmpty();
    }

    @Test
    void aDeleteWhoseAnswerAnOutageHidGoesSpeculativeAfterItsVmidWentToAnotherVm() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder().start();
                TestingProvider provider = provider(cluster)) {
            LifecycleClient client = provider.client();
            String id = client.list().get(0).getId();
            client.create(id);
            Machine idle = client.awaitState(id, MachineState.MACHINE_STATE_IDLE, WAIT);
            int vmid = vmid(idle);
            String elsewhere = node(idle).equals("pve1") ? "pve2" : "pve1";
            // the destroy is carried out, and its answer still on its way when the outage begins
            cluster.simulator()
                    .faults()
                    .delayResponses("DELETE", "/nodes/" + node(idle) + "/qemu/" + vmid, 1, Duration.ofSeconds(60));

            client.delete(id);
            await().atMost(WAIT).until(() -> cluster.simulator().vm(vmid).isEmpty());
            cluster.simulator().refuseConnections(); // the answer held back is cut
            // meanwhile another provider's Create gets the freed VMID, on another node
            cluster.simulator().faults().createForeignVm(anotherProvidersVm(vmid, elsewhere));
            cluster.simulator().clearRequests();
            // longer than the API client's own retries: the transition's retry comes after the outage
            Thread.sleep(15_000);
            assertThat(client.state(id))
                    .as("the Delete waits for the API")
                    .isEqualTo(MachineState.MACHINE_STATE_DELETING);
            cluster.simulator().acceptConnections();

            Machine deleted = client.awaitState(id, MachineState.MACHINE_STATE_SPECULATIVE, WAIT);
            assertThat(deleted.getLastError()).isEmpty();
            assertUntouched(cluster, vmid);
            assertThat(cluster.simulator().vm(vmid).map(VmView::node)).hasValue(elsewhere);
        }
    }

    @Test
    void aConfigureAndADrainOfMachinesWhoseVmidWasReusedFailSayingSoAndTheirCleanupEndsSpeculative() throws Exception {
        try (TestingProxmoxCluster cluster = TestingProxmoxCluster.builder().start();
                TestingProvider provider = provider(cluster)) {
            LifecycleClient client = provider.client();
            List<String> ids =
                    client.list().stream().map(Machine::getId).sorted().toList();
            String configured = ids.get(0);
            String drained = ids.get(1);
            client.create(configured);
            client.create(drained);
            client.awaitAll(List.of(configured, drained), MachineState.MACHINE_STATE_IDLE, WAIT);
            client.configure(drained, "prod-1", BLOB);
            client.awaitState(drained, MachineState.MACHINE_STATE_CONFIGURED, WAIT);
            Machine toConfigure = client.get(configured);
            Machine toDrain = client.get(drained);
            // both VMs destroyed behind the provider's back; their VMIDs go to other VMs at once
            cluster.simulator().faults().setPower(vmid(toConfigure), PowerState.STOPPED);
            cluster.simulator().faults().destroyVm(vmid(toConfigure));
            cluster.simulator().faults().setPower(vmid(toDrain), PowerState.STOPPED);
            cluster.simulator().faults().destroyVm(vmid(toDrain));
            cluster.simulator()
                    .faults()
                    .createForeignVm(ForeignVm.of(vmid(toConfigure), node(toConfigure))
                            .withDescription("database server, do not touch")
                            .withPower(PowerState.RUNNING));
            String elsewhere = node(toDrain).equals("pve1") ? "pve2" : "pve1";
            cluster.simulator().faults().createForeignVm(anotherProvidersVm(vmid(toDrain), elsewhere));
            cluster.simulator().clearRequests();

            client.configure(configured, "prod-1", BLOB);
            client.drain(drained, 5);

            Machine configureFailed = client.awaitState(configured, MachineState.MACHINE_STATE_FAILED, WAIT);
            assertThat(configureFailed.getLastError())
                    .contains("VM " + toConfigure.getHost().getRef() + " of machine " + configured + " " + GONE
                            + node(toConfigure) + "/" + vmid(toConfigure) + " (no BigFleet description), which was"
                            + " left untouched)");
            Machine drainFailed = client.awaitState(drained, MachineState.MACHINE_STATE_FAILED, WAIT);
            assertThat(drainFailed.getLastError())
                    .contains("VM " + toDrain.getHost().getRef() + " of machine " + drained + " " + GONE + elsewhere
                            + "/" + vmid(toDrain) + " (provider \"team-b\", machine \"team-b/");

            // their cleanup, after --failed-retention: nothing of theirs to drain or destroy
            assertThat(client.awaitReplaced(configured, WAIT).getLastError()).isEmpty();
            assertThat(client.awaitReplaced(drained, WAIT).getLastError()).isEmpty();
            assertUntouched(cluster, vmid(toConfigure));
            assertUntouched(cluster, vmid(toDrain));
        }
    }
}
