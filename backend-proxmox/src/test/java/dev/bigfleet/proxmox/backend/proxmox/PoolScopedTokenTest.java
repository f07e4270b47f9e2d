package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.pvesim.TaskKind;
import dev.bigfleet.proxmox.pvesim.TokenPrivileges;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A token with privileges only on its pool and storages, and {@code Sys.Audit} on the nodes (the
 * README's least-privilege setup): the whole lifecycle works, VMs it cannot see yet are waited for
 * rather than cloned again, and a missing privilege stops startup naming it and its path.
 */
class PoolScopedTokenTest {
    private static final InstanceTypeCatalog CATALOG = SimulatorBackends.catalog(SimulatorBackends.type(
            "pve.small",
            Map.of("template_tags", "[\"bigfleet-template\"]", "clone_mode", "\"linked\"", "disk_gib", "40")));
    private TestingProxmoxCluster cluster;

    @AfterEach
    void stop() {
        cluster.close();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private ProxmoxBackend start(UnaryOperator<TokenPrivileges> privileges) throws Exception {
        TokenPrivileges p = TokenPrivileges.poolScoped(POOL);
        for (int t = 9001; t <= 9003; t++) {
            p.grant("/vms/" + t, "VM.Audit", "VM.Clone");
        }
        cluster = TestingProxmoxCluster.builder()
                .localStorage()
                .pool(POOL)
                .customize(b -> b.poolScopedToken(POOL).tokenPrivileges(privileges.apply(p)))
                .start();
        return SimulatorBackends.backend(
                cluster,
                "proxmox",
                SimulatorBackends.THREE_NODES,
                CATALOG,
                SimulatorBackends.onEachNode("pve.small"),
                Map.of(),
                new CountingRecorder());
    }

    @Test
    void theWholeLifecycleWorksWithPrivilegesOnlyOnThePoolStoragesAndNodes() throws Exception {
        try (ProxmoxBackend backend = start(p -> p)) {
            InstanceType small = CATALOG.find("pve.small").orElseThrow();
            String id = "proxmox/OnDemand/pve.small/pve2/000";
            CreatedVm vm = backend.cloneAndStart(new CloneSpec(id, small, "pve2", Map.of()), forMachine(id));
            VmView v = cluster.simulator().vm((int) vm.vmid()).orElseThrow();
            assertThat(v.pool()).isEqualTo(POOL);
            assertThat(String.valueOf(v.config().get("scsi0"))).endsWith(",size=40G");

            VmTarget target = new VmTarget(id, vm.node(), vm.vmid());
            TestOperationContext configure = forMachine(id);
            backend.ensureRunning(target, configure);
            backend.applyBootstrap(new BootstrapSpec(target, "cluster-1", Leaks.BLOB), configure);
            TestOperationContext drain = forMachine(id);
            backend.ensureRunning(target, drain);
            backend.drain(new DrainSpec(target, "cluster-1", 30), drain);
            assertThat(backend.describeManaged()).hasSize(1);
            backend.destroy(target, forMachine(id));
            assertThat(cluster.simulator().vm((int) vm.vmid())).isEmpty();
            assertThat(cluster.simulator().vm(9002)).isPresent();
        }
    }

    @Test
    void onPve9UnrestrictedAloneCoversEveryGuestAgentCallOfTheLifecycle() throws Exception {
        try (ProxmoxBackend backend =
                start(p -> p.revoke("/pool/" + POOL, "VM.GuestAgent.Audit", "VM.GuestAgent.FileWrite"))) {
            InstanceType small = CATALOG.find("pve.small").orElseThrow();
            String id = "proxmox/OnDemand/pve.small/pve1/000";
            CreatedVm vm = backend.cloneAndStart(new CloneSpec(id, small, "pve1", Map.of()), forMachine(id));
            VmTarget target = new VmTarget(id, vm.node(), vm.vmid());
            TestOperationContext configure = forMachine(id);
            backend.ensureRunning(target, configure);
            // the ping (Audit or Unrestricted), the file-write (FileWrite or Unrestricted), the exec
            backend.applyBootstrap(new BootstrapSpec(target, "cluster-1", Leaks.BLOB), configure);
            assertThat(cluster.simulator().vm((int) vm.vmid()).orElseThrow().execs())
                    .as("the bootstrap hook ran")
                    .isNotEmpty();
            backend.destroy(target, forMachine(id));
        }
    }

    @Test
    void onPve9AGuestAgentCallWithoutAnyPrivilegeThatServesItStopsStartupNamingTheAlternatives() {
        assertThat(refusal(p -> p.revoke("/pool/" + POOL, "VM.GuestAgent.Unrestricted")))
                .as("exec takes Unrestricted and nothing else")
                .startsWith("--proxmox-token-id: the API token lacks VM.GuestAgent.Unrestricted on /pool/bigfleet");
        assertThat(refusal(p -> p.revoke("/pool/" + POOL, "VM.GuestAgent.FileWrite", "VM.GuestAgent.Unrestricted")))
                .startsWith("--proxmox-token-id: the API token lacks one of VM.GuestAgent.FileWrite,"
                        + " VM.GuestAgent.Unrestricted on /pool/bigfleet");
    }

    @Test
    void aCloneWhoseAnswerIsLostIsWaitedForWhileTheTokenCannotSeeIt() throws Exception {
        try (ProxmoxBackend backend = start(p -> p)) {
            cluster.simulator().faults().dropResponses("POST", "/nodes/pve3/qemu/9003/clone", 1);
            // invisible to the token for longer than a missing VM is given to show up
            cluster.simulator().faults().slowTasks(TaskKind.CLONE, 1, CloneLocator.ABSENT_GRACE.plusMillis(1500));
            InstanceType small = CATALOG.find("pve.small").orElseThrow();
            String id = "proxmox/OnDemand/pve.small/pve3/000";
            CreatedVm vm = backend.cloneAndStart(new CloneSpec(id, small, "pve3", Map.of()), forMachine(id));
            assertThat(cluster.simulator().vms().stream().filter(v -> !v.template()))
                    .singleElement()
                    .satisfies(v -> assertThat(v.vmid()).isEqualTo((int) vm.vmid()));
            assertThat(cluster.simulator().tasks().stream().filter(t -> t.type().equals("qmclone")))
                    .as("cloned once")
                    .hasSize(1);
        }
    }

    @Test
    void aMissingPrivilegeStopsStartupNamingItAndItsPath() {
        assertThat(refusal(p -> p.revoke("/pool/bigfleet", "VM.Config.Disk")))
                .isEqualTo("--proxmox-token-id: the API token lacks VM.Config.Disk on /pool/bigfleet (grant it to the"
                        + " token and its user; see Token privileges in docs/proxmox/storage.md)");
        assertThat(refusal(p -> p.revoke("/storage", "Datastore.AllocateSpace").grant("/storage", "Datastore.Audit")))
                .startsWith("--proxmox-token-id: the API token lacks Datastore.AllocateSpace on /storage/local-lvm");
        assertThat(refusal(p -> p.grant("/nodes/pve3", "Datastore.Audit")))
                .as("an entry on /nodes/pve3 replaces the one on /nodes")
                .startsWith("--proxmox-token-id: the API token lacks Sys.Audit on /nodes/pve3");
        assertThat(refusal(p -> p.revoke("/vms/9002", "VM.Clone")))
                .startsWith("--proxmox-token-id: the API token lacks VM.Clone on /vms/9002");
    }

    private String refusal(UnaryOperator<TokenPrivileges> privileges) {
        try (ProxmoxBackend b = start(privileges)) {
            throw new AssertionError("startup was not refused: " + b);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e.getMessage();
        } catch (Exception e) {
            throw new AssertionError("refused with the wrong exception", e);
        } finally {
            cluster.close();
        }
    }
}
