package dev.bigfleet.proxmox.backend.proxmox;

import static dev.bigfleet.proxmox.backend.proxmox.SimulatorBackends.POOL;
import static dev.bigfleet.proxmox.spi.testkit.TestOperationContext.forMachine;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.api.CapacityType;
import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.pvesim.GuestConsole;
import dev.bigfleet.proxmox.pvesim.RecordedRequest;
import dev.bigfleet.proxmox.pvesim.StorageView;
import dev.bigfleet.proxmox.pvesim.TokenPrivileges;
import dev.bigfleet.proxmox.pvesim.VmView;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.BootstrapSpec;
import dev.bigfleet.proxmox.spi.CloneSpec;
import dev.bigfleet.proxmox.spi.CreatedVm;
import dev.bigfleet.proxmox.spi.DrainSpec;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import dev.bigfleet.proxmox.spi.VmTarget;
import dev.bigfleet.proxmox.spi.testkit.TestOperationContext;
import dev.bigfleet.proxmox.testing.TestingKubernetesCluster;
import dev.bigfleet.proxmox.testing.TestingProxmoxCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A type whose bootstrap is a NoCloud seed, on the simulator, with a guest whose qemu-guest-agent
 * refuses {@code guest-exec}: Create leaves the clone stopped; Configure uploads the seed, attaches
 * it, boots the VM, and the guest's real cloud-init runs the blob as its user-data; the node is
 * waited for through a Kubernetes API (fabric8's mock server), and the seed is gone from storage
 * when the Configure returns, whether it succeeded or not. No guest command is ever sent, and the
 * token holds no {@code VM.GuestAgent.*} privilege.
 */
class NocloudAgainstSimulatorTest {
    private static final String TOKEN = "workload-token";
    private static final String ID = "proxmox/OnDemand/pve.talos/pve1/000";
    /** The user-data: a shell script cloud-init runs, which records the name the node joins as. */
    private static final byte[] BLOB =
            "#!/bin/sh\nhostname > /var/lib/bigfleet-joined-as\necho s3cr3t-join-token > /dev/null\n"
                    .getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private TestingProxmoxCluster cluster;
    private TestingKubernetesCluster workload;
    private ProxmoxBackend backend;
    private final ExecutorService kubelet = Executors.newSingleThreadExecutor();

    @BeforeEach
    void start() throws Exception {
        // a nocloud type never asks its guest anything through the agent: its token needs no agent privilege
        cluster = TestingProxmoxCluster.builder()
                .pool(POOL)
                .execBlocked()
                .customize(b -> b.tokenPrivileges(TokenPrivileges.administrator()
                        .revoke(
                                "/",
                                "VM.GuestAgent.Audit",
                                "VM.GuestAgent.FileRead",
                                "VM.GuestAgent.FileWrite",
                                "VM.GuestAgent.FileSystemMgmt",
                                "VM.GuestAgent.Unrestricted")))
                .start();
        workload = new TestingKubernetesCluster();
        Path kubeconfig = workload.kubeconfig(dir.resolve("prod-1.kubeconfig"), TOKEN);
        InstanceType talos =
                SimulatorBackends.type("pve.talos", Map.of("bootstrap", "\"nocloud\"", "seed_storage", "\"local\""));
        backend = SimulatorBackends.backend(
                cluster,
                "proxmox",
                List.of("pve1", "pve2"),
                SimulatorBackends.catalog(talos),
                List.of(new Offering("pve.talos", "pve1", CapacityType.ON_DEMAND, 4, Map.of(), Map.of())),
                Map.of("cluster-kubeconfig", "prod-1=" + kubeconfig),
                new CountingRecorder());
    }

    @AfterEach
    void stop() {
        kubelet.shutdownNow();
        backend.close();
        workload.close();
        cluster.close();
    }

    @AfterAll
    static void nothingSecretWasLogged() {
        Leaks.assertNoneLogged();
    }

    private VmView vm(long vmid) {
        return cluster.simulator().vm((int) vmid).orElseThrow();
    }

    private CreatedVm create() throws BackendException {
        return backend.cloneAndStart(
                new CloneSpec(ID, SimulatorBackends.type("pve.talos", Map.of()), "pve1", Map.of()), forMachine(ID));
    }

    /** The seed images on the node's local storage. */
    private List<String> seeds() {
        return cluster.simulator().storage("local", "pve1").map(StorageView::volumes).orElse(List.of()).stream()
                .map(StorageView.VolumeView::volid)
                .filter(v -> v.contains(":iso/bigfleet-seed-"))
                .toList();
    }

    /** Plays the kubelet: once the guest's user-data ran, its node registers Ready under the name it ran as. */
    private Future<String> joinWhenBootstrapped(long vmid) {
        return kubelet.submit(() -> {
            GuestConsole guest = cluster.simulator().guest((int) vmid);
            Instant until = Instant.now().plusSeconds(60);
            while (Instant.now().isBefore(until)) {
                Optional<String> joined;
                try {
                    joined = guest.readFileText("/var/lib/bigfleet-joined-as");
                } catch (IllegalStateException notRunningYet) {
                    joined = Optional.empty();
                }
                if (joined.isPresent()) {
                    String node = joined.get().strip();
                    workload.node(node, "True", "KubeletReady", "kubelet is posting ready status");
                    return node;
                }
                Thread.sleep(100);
            }
            return "";
        });
    }

    @Test
    void configureBootsTheSeedRunsItsUserDataWaitsForTheNodeAndLeavesNoSeedBehind() throws Exception {
        CreatedVm created = create();
        assertThat(vm(created.vmid()).running())
                .as("a nocloud clone waits for its seed before its first boot")
                .isFalse();
        Future<String> joined = joinWhenBootstrapped(created.vmid());
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());
        TestOperationContext context = forMachine(ID);

        backend.ensureRunning(target, context);
        backend.applyBootstrap(new BootstrapSpec(target, "prod-1", BLOB), context);

        String expectedNode = SeedDelivery.nodeName("pve.talos", ID);
        assertThat(joined.get()).isEqualTo(expectedNode);
        VmView vm = vm(created.vmid());
        assertThat(vm.running()).isTrue();
        String result = cluster.simulator()
                .guest((int) created.vmid())
                .readFileText("/run/cloud-init/result.json")
                .orElseThrow();
        assertThat(result).contains("DataSourceNoCloud").contains("\"errors\": []");
        assertThat(seeds())
                .as("the seed holds the join secret: deleted once the node is Ready")
                .isEmpty();
        assertThat(vm.config().values().stream().map(String::valueOf))
                .as("the CD-ROM was emptied")
                .noneMatch(v -> v.contains("bigfleet-seed-"));
        assertThat(execRequests(created.vmid()))
                .as("no guest command was ever sent")
                .isEmpty();
        assertThat(backend.readiness().isEmpty() || assertReadinessPasses(target))
                .isTrue();

        // Drain through the cluster's API: the node is gone and the VM powered off
        backend.drain(new DrainSpec(target, "prod-1", 30), forMachine(ID));
        assertThat(workload.admin.nodes().withName(expectedNode).get()).isNull();
        assertThat(vm(created.vmid()).running()).isFalse();
        assertThat(execRequests(created.vmid())).isEmpty();

        // its disk keeps what the first bootstrap installed: it is never configured again
        assertThatThrownBy(() -> backend.applyBootstrap(new BootstrapSpec(target, "prod-1", BLOB), forMachine(ID)))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.bootstrapStarted()).isFalse();
                    assertThat(e.getMessage()).contains("booted a seed before");
                });
        assertThat(vm(created.vmid()).running()).isFalse();

        backend.destroy(target, forMachine(ID));
        assertThat(cluster.simulator().vm((int) created.vmid())).isEmpty();
    }

    private boolean assertReadinessPasses(VmTarget target) throws BackendException {
        backend.readiness().orElseThrow().awaitNodeReady(target, "prod-1", forMachine(ID));
        return true;
    }

    private List<RecordedRequest> execRequests(long vmid) {
        return cluster.simulator().requests().stream()
                .filter(r -> r.path().contains("/qemu/" + vmid + "/agent/exec"))
                .toList();
    }

    @Test
    void aNodeThatNeverBecomesReadyFailsTheConfigureAsBoundAndTheSeedIsStillDeleted() throws Exception {
        CreatedVm created = create();
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());
        TestOperationContext context = TestOperationContext.withDeadline(ID, Duration.ofSeconds(12));

        assertThatThrownBy(() -> backend.applyBootstrap(new BootstrapSpec(target, "prod-1", BLOB), context))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.bootstrapStarted())
                            .as("the guest booted with the secret")
                            .isTrue();
                    assertThat(e.getMessage())
                            .contains("prod-1")
                            .contains(SeedDelivery.nodeName("pve.talos", ID))
                            .doesNotContain("s3cr3t");
                });
        assertThat(seeds()).isEmpty();
    }

    @Test
    void aClusterWithoutAKubeconfigFailsAtOnceAndUploadsNothing() throws Exception {
        CreatedVm created = create();
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());

        assertThatThrownBy(() -> backend.applyBootstrap(new BootstrapSpec(target, "prod-2", BLOB), forMachine(ID)))
                .isInstanceOfSatisfying(BackendException.class, e -> {
                    assertThat(e.bootstrapStarted()).isFalse();
                    assertThat(e.getMessage()).contains("no kubeconfig for cluster prod-2");
                });
        assertThat(vm(created.vmid()).running()).isFalse();
        assertThat(cluster.simulator().requests()).noneMatch(r -> r.path().endsWith("/upload"));
    }

    @Test
    void aReconcilePassRemovesSeedsNoConfigureUsesAndLeavesOtherProvidersSeedsAlone() throws Exception {
        CreatedVm created = create();
        VmTarget target = new VmTarget(ID, created.node(), created.vmid());
        // a seed a crash left behind, another provider's seed, and an ISO that is no seed at all
        uploadIso("bigfleet-seed-" + seedHashOf("proxmox") + "-" + created.vmid() + "-op-9.iso");
        uploadIso("bigfleet-seed-" + seedHashOf("team-b") + "-" + created.vmid() + "-op-9.iso");
        uploadIso("talos-1.9.iso");

        backend.describeManaged();

        String ours = seedHashOf("proxmox");
        assertThat(cluster.simulator().storage("local", "pve1").orElseThrow().volumes())
                .extracting(StorageView.VolumeView::volid)
                .contains(
                        "local:iso/talos-1.9.iso",
                        "local:iso/bigfleet-seed-" + seedHashOf("team-b") + "-" + created.vmid() + "-op-9.iso")
                .noneMatch(v -> v.contains(ours));
        backend.destroy(target, forMachine(ID));
    }

    private void uploadIso(String name) throws Exception {
        PveClient api = ((ProxmoxApiBackend) backend).api();
        new TaskWaiter(api).await(api.upload("pve1", "local", "iso", name, new byte[4096]), "upload", forMachine(ID));
    }

    @Test
    void aSeedStorageThatHoldsNoIsoImagesStopsStartupNamingIt() {
        InstanceType talos = SimulatorBackends.type(
                "pve.talos", Map.of("bootstrap", "\"nocloud\"", "seed_storage", "\"local-lvm\""));
        assertThatThrownBy(() -> SimulatorBackends.backend(
                        cluster,
                        "proxmox",
                        List.of("pve1", "pve2"),
                        SimulatorBackends.catalog(talos),
                        List.of(new Offering("pve.talos", "pve1", CapacityType.ON_DEMAND, 1, Map.of(), Map.of())),
                        Map.of(),
                        new CountingRecorder()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--instance-types \"pve.talos\": seed_storage: storage local-lvm");
    }

    private static String seedHashOf(String providerLabel) throws NoSuchAlgorithmException {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(providerLabel.getBytes(StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(digest, 0, 4);
    }
}
