package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.pvesim.ForeignVm;
import dev.bigfleet.proxmox.pvesim.GuestConsole;
import dev.bigfleet.proxmox.pvesim.PowerState;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ManagedVm;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Create, Configure, Drain and Delete of the real backend against the simulator, over HTTPS. */
class LifecycleAgainstSimulatorTest {
    private TestingProxmoxCluster cluster;
    private CountingRecorder calls;
    private ProxmoxBackend backend;

    @BeforeEach
    void start() throws Exception {
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        calls = new CountingRecorder();
        backend = SimulatorBackends.backend(cluster, "proxmox", calls);
    }

    @AfterEach
    void stop() {
        backend.close();
        cluster.close();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private VmView vm(long vmid) {
        return cluster.simulator().vm((int) vmid).orElseThrow(() -> new AssertionError("no VM " + vmid));
    }

    @Test
    void createClonesAMarkedSizedRunningVmWithItsAgentUp() throws Exception {
        String id = "proxmox/OnDemand/pve.small/pve2/000";
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(id, "pve2"), forMachine(id));

        VmView vm = vm(created.vmid());
        assertThat(created.node()).isEqualTo("pve2");
        assertThat(vm.node()).isEqualTo("pve2");
        assertThat(vm.running()).isTrue();
        assertThat(vm.agentUp()).isTrue();
        assertThat(vm.name()).isEqualTo("bigfleet-pve-small-proxmox-OnDemand-pve-small-pve2-000");
        assertThat(vm.tags())
                .contains("bigfleet", "bigfleet-p-proxmox", "bigfleet-m-proxmox-ondemand-pve.small-pve2-000");
        assertThat(VmDescription.parse(Optional.ofNullable(vm.description()))).hasValueSatisfying(d -> {
            assertThat(d.provider()).isEqualTo("proxmox");
            assertThat(d.machineId()).isEqualTo(id);
            assertThat(d.operationId()).startsWith("op-");
        });
        assertThat(vm.cores()).isEqualTo(2);
        assertThat(vm.memoryMib()).isEqualTo(4096);
        assertThat(String.valueOf(vm.config().get("balloon")))
                .as("the balloon target is the memory, so PVE 9 reports the VM's memory correctly")
                .isEqualTo("4096");
        assertThat(String.valueOf(vm.config().get("agent"))).isEqualTo("1");
        assertThat(vm.pool()).isEqualTo(POOL);
        assertThat(cluster.simulator().vms().stream().filter(v -> !v.template()))
                .hasSize(1);
    }

    /**
     * A bootstrap blob that, run by the default hook ({@code /bin/sh BLOB}), leaves in the guest a
     * copy of itself and the mode it had, then joins with the kubeadm stand-in; {@code tail} is
     * never read by the shell.
     */
    private static byte[] capturingBlob(byte[] tail) {
        byte[] head = ("#!/bin/sh\nstat -c %a \"$0\" > /root/blob-mode\ncat \"$0\" > /root/blob-copy\n"
                        + "kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef\nexit $?\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] blob = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, blob, head.length, tail.length);
        return blob;
    }

    @Test
    void configureWritesTheBlobPrivatelyRunsTheHookAndDeletesTheBlob() throws Exception {
        String id = "proxmox/OnDemand/pve.small/pve1/000";
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        byte[] blob = capturingBlob(Leaks.BLOB);

        VmTarget target = new VmTarget(id, created.node(), created.vmid());
        TestOperationContext op = forMachine(id);
        backend.ensureRunning(target, op);
        backend.applyBootstrap(new BootstrapSpec(target, "cluster-1", blob), op);

        GuestConsole guest = cluster.simulator().guest((int) created.vmid());
        assertThat(guest.read("/root/blob-copy")).hasValue(blob);
        assertThat(guest.readText("/root/blob-mode")).hasValue("600\n");
        assertThat(guest.read("/etc/kubernetes/kubelet.conf")).as("joined").isPresent();
        assertThat(guest.read("/run/bigfleet-bootstrap")).isEmpty();
    }

    @Test
    void aBlobLargerThanOneAgentWriteArrivesWhole() throws Exception {
        String id = "proxmox/OnDemand/pve.small/pve1/001";
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        byte[] random = new byte[150_000];
        new Random(7).nextBytes(random);
        byte[] blob = capturingBlob(random);

        backend.applyBootstrap(
                new BootstrapSpec(new VmTarget(id, created.node(), created.vmid()), "c", blob), forMachine(id));

        GuestConsole guest = cluster.simulator().guest((int) created.vmid());
        assertThat(guest.read("/root/blob-copy")).hasValue(blob);
        assertThat(guest.readText("/root/blob-mode")).hasValue("600\n");
        assertThat(guest.sh("ls -a /run | grep bigfleet || true"))
                .as("no blob or part left")
                .isEmpty();
    }

    @Test
    void drainRunsKubectlBoundedByTheGracePeriodWithoutHidingFailures() throws Exception {
        String id = "proxmox/OnDemand/pve.small/pve1/002";
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        VmTarget target = new VmTarget(id, created.node(), created.vmid());
        TestOperationContext op = forMachine(id);

        backend.ensureRunning(target, op);
        backend.drain(new DrainSpec(target, "cluster-1", 30), op);

        String drain = vm(created.vmid())
                .execs()
                .get(vm(created.vmid()).execs().size() - 1)
                .commandLine();
        assertThat(drain)
                .isEqualTo("/bin/sh -c kubectl drain \"$(hostname)\" --ignore-daemonsets"
                        + " --delete-emptydir-data --timeout=30s");
        assertThat(drain).doesNotContain("|| true");
    }

    @Test
    void aVmMovedByHaIsFoundByVmid() throws Exception {
        String id = "proxmox/OnDemand/pve.small/pve1/006";
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(id, "pve1"), forMachine(id));
        cluster.simulator().faults().migrateVm((int) created.vmid(), "pve2");

        VmTarget stale = new VmTarget(id, "pve1", created.vmid());
        TestOperationContext op = forMachine(id);
        backend.ensureRunning(stale, op);
        backend.applyBootstrap(new BootstrapSpec(stale, "c", Leaks.BLOB), op);
        backend.destroy(stale, forMachine(id));

        assertThat(cluster.simulator().vm((int) created.vmid())).isEmpty();
    }

    @Test
    void describeListsThisProvidersVmsAndRereadsNothingOnTheNextPass() throws Exception {
        String a = "proxmox/OnDemand/pve.small/pve1/007";
        String b = "proxmox/OnDemand/pve.small/pve2/007";
        CreatedVm va = backend.cloneAndStart(SimulatorBackends.clone(a, "pve1"), forMachine(a));
        CreatedVm vb = backend.cloneAndStart(SimulatorBackends.clone(b, "pve2"), forMachine(b));

        calls.reset();
        List<ManagedVm> vms = backend.describeManaged();
        assertThat(vms)
                .containsExactlyInAnyOrder(
                        new ManagedVm(Optional.of(a), "pve1", va.vmid(), true),
                        new ManagedVm(Optional.of(b), "pve2", vb.vmid(), true));
        assertThat(calls.total()).isEqualTo(1);

        // a fresh process knows nothing: one listing plus one config read per VM, then one call
        CountingRecorder cold = new CountingRecorder();
        try (ProxmoxBackend fresh = SimulatorBackends.backend(cluster, "proxmox", cold)) {
            cold.reset();
            assertThat(fresh.describeManaged()).hasSize(2);
            assertThat(cold.total()).isEqualTo(3);
            cold.reset();
            assertThat(fresh.describeManaged()).hasSize(2);
            assertThat(cold.total()).isEqualTo(1);
        }
    }

    @Test
    void aTaggedVmThatLostItsDescriptionIsReportedWithoutAMachineAndCanBeDestroyed() throws Exception {
        cluster.simulator()
                .faults()
                .createForeignVm(ForeignVm.of(4242, "pve2")
                        .withTags("bigfleet;bigfleet-p-proxmox")
                        .withPower(PowerState.RUNNING)
                        .inPool(POOL));
        cluster.simulator()
                .faults()
                .createForeignVm(ForeignVm.of(4243, "pve2")
                        .withTags("bigfleet;bigfleet-p-other")
                        .withPower(PowerState.RUNNING)
                        .inPool(POOL));

        assertThat(backend.describeManaged()).containsExactly(new ManagedVm(Optional.empty(), "pve2", 4242, true));
        backend.destroy(new VmTarget("", "pve2", 4242), forMachine(""));
        // another provider's VM: not the one described, which is therefore gone; it is left alone
        backend.destroy(new VmTarget("", "pve2", 4243), forMachine(""));

        assertThat(cluster.simulator().vm(4242)).isEmpty();
        assertThat(cluster.simulator().vm(4243)).isPresent();
    }

    @Test
    void nodesReportsCapacity() throws Exception {
        assertThat(backend.nodes()).extracting(n -> n.name()).containsExactlyInAnyOrder("pve1", "pve2");
        assertThat(backend.nodes()).allSatisfy(n -> {
            assertThat(n.online()).isTrue();
            assertThat(n.maxMemoryBytes()).isPositive();
        });
    }
}
