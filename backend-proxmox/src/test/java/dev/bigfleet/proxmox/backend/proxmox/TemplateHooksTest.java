package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.pvesim.GuestConsole;
import dev.bigfleet.proxmox.pvesim.GuestExec;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.ApiCallRecorder;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The setup kit's template hooks driven by the real backend against the simulator: {@code
 * --bootstrap-exec} runs {@code bootstrap-hook.sh} on a tar blob and {@code --drain-exec} runs
 * {@code drain-hook.sh} with the timeout appended, both as the template guide installs them.
 */
class TemplateHooksTest {
    private static final Path KIT = Path.of("..").toAbsolutePath().normalize().resolve("deploy/proxmox");
    private static final String BOOTSTRAP_HOOK = "/usr/local/lib/bigfleet/bootstrap-hook.sh";
    private static final String DRAIN_HOOK = "/usr/local/lib/bigfleet/drain-hook.sh";
    private static final String ID = "proxmox/OnDemand/pve.small/pve1/000";

    @TempDir
    Path dir;

    private TestingProxmoxCluster cluster;
    private ProxmoxBackend backend;

    @BeforeEach
    void start() throws Exception {
        // the simulator's guest image ships this checkout's hooks where the template guide puts them
        cluster = TestingProxmoxCluster.builder().pool(POOL).start();
        backend = SimulatorBackends.backend(
                cluster,
                "proxmox",
                Map.of("bootstrap-exec", "/bin/sh," + BOOTSTRAP_HOOK, "drain-exec", "/bin/sh, " + DRAIN_HOOK),
                ApiCallRecorder.NONE);
    }

    @AfterEach
    void stop() throws Exception {
        backend.close();
        cluster.close();
    }

    private byte[] blob() throws Exception {
        Files.writeString(dir.resolve("join.yaml"), "apiVersion: kubeadm.k8s.io/v1beta4\nkind: JoinConfiguration\n");
        Files.writeString(dir.resolve("drain.kubeconfig"), "apiVersion: v1\nkind: Config\n");
        Process tar = new ProcessBuilder("tar", "-cf", "blob.tar", "join.yaml", "drain.kubeconfig")
                .directory(dir.toFile())
                .inheritIO()
                .start();
        assertThat(tar.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return Files.readAllBytes(dir.resolve("blob.tar"));
    }

    private VmView vm(CreatedVm created) {
        return cluster.simulator().vm((int) created.vmid()).orElseThrow();
    }

    @Test
    void configureJoinsWithTheBootstrapHookAndDrainRunsTheDrainHookWithItsTimeout() throws Exception {
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(ID, "pve1"), forMachine(ID));
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());

        backend.applyBootstrap(new BootstrapSpec(target, "prod-1", blob()), forMachine(ID));
        GuestConsole guest = cluster.simulator().guest((int) created.vmid());
        assertThat(guest.readText(BOOTSTRAP_HOOK)).hasValue(Files.readString(KIT.resolve("bootstrap-hook.sh")));
        assertThat(guest.read("/etc/kubernetes/kubelet.conf"))
                .as("%s", vm(created).execs())
                .isPresent();
        assertThat(guest.read("/run/bigfleet-bootstrap")).isEmpty();
        assertThat(guest.mode("/etc/bigfleet/drain.kubeconfig")).hasValue("600");
        assertThat(guest.sh("ls /run")).doesNotContain("bigfleet-join");

        backend.drain(new DrainSpec(target, "prod-1", 45), forMachine(ID));
        GuestExec drain = vm(created).execs().stream()
                .filter(e -> e.commandLine().contains("drain-hook.sh"))
                .reduce((a, b) -> b)
                .orElseThrow();
        assertThat(drain.argv()).containsExactly("/bin/sh", DRAIN_HOOK, "45");
        assertThat(drain.result().stdout()).contains("drained");
        assertThat(vm(created).execs()).noneMatch(e -> e.commandLine().startsWith("/bin/sh -c kubectl drain"));
    }

    @Test
    void aFailingDrainHookFailsTheDrainWithItsExitCode() throws Exception {
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(ID, "pve1"), forMachine(ID));
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());
        GuestConsole guest = cluster.simulator().guest((int) created.vmid());
        guest.writeText("/etc/bigfleet/drain.kubeconfig", "apiVersion: v1\nkind: Config\n");
        guest.kubectlDrainFails(3, "error: cannot evict pod\n");

        assertThatThrownBy(() -> backend.drain(new DrainSpec(target, "prod-1", 0), forMachine(ID)))
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("drain hook \"/bin/sh " + DRAIN_HOOK + "\" on VM")
                .hasMessageContaining("3")
                .hasMessageContaining("cannot evict pod");
        assertThat(vm(created).execs()).anyMatch(e -> e.argv().equals(List.of("/bin/sh", DRAIN_HOOK, "1")));
    }

    @Test
    void aBlobTheHookCannotUseFailsConfigure() throws Exception {
        CreatedVm created = backend.cloneAndStart(SimulatorBackends.clone(ID, "pve1"), forMachine(ID));
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());
        byte[] notTar = "not an archive".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> backend.applyBootstrap(new BootstrapSpec(target, "prod-1", notTar), forMachine(ID)))
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("bootstrap hook \"/bin/sh " + BOOTSTRAP_HOOK + " /run/bigfleet-bootstrap\"")
                .hasMessageContaining("This does not look like a tar archive");
        assertThat(cluster.simulator().guest((int) created.vmid()).read("/run/bigfleet-bootstrap"))
                .isEmpty();
    }
}
