package dev.bigfleet.proxmox.backend.proxmox.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.testing.TestingKubernetesCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Readiness through the workload cluster's API, against fabric8's mock API server over HTTPS. */
class WorkloadReadinessTest {
    private static final String TOKEN = "kubeconfig-token-must-not-leak";
    private static final Pacing FAST = new Pacing(Duration.ofMillis(50), Duration.ofMillis(200));

    @TempDir
    Path dir;

    private TestingKubernetesCluster cluster;
    private WorkloadClusters clusters;
    private final ScheduledExecutorService background = Executors.newSingleThreadScheduledExecutor();

    @BeforeEach
    void start() throws Exception {
        cluster = new TestingKubernetesCluster();
        clusters = new KubernetesWorkloadClusters(
                kubeconfigs(cluster.kubeconfig(dir.resolve("prod-1.yaml"), TOKEN)), FAST);
    }

    @AfterEach
    void stop() {
        background.shutdownNow();
        clusters.close();
        cluster.close();
    }

    private static ClusterKubeconfigs kubeconfigs(Path prod1) {
        return ClusterKubeconfigs.parse(
                Optional.of("prod-1=" + prod1), "--cluster-kubeconfig", Optional.empty(), "--cluster-kubeconfig-dir");
    }

    private static Instant in(Duration d) {
        return Instant.now().plus(d);
    }

    @Test
    void aNodeThatBecomesReadyWhileWaitedForEndsTheWait() throws Exception {
        cluster.node("pve-x", "False", "KubeletNotReady", "container runtime network not ready");
        Future<?> unused = background.schedule(
                () -> cluster.setReady("pve-x", "True", "KubeletReady", "kubelet is posting ready status"),
                700,
                TimeUnit.MILLISECONDS);
        Instant start = Instant.now();

        clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(20)));

        assertThat(Duration.between(start, Instant.now()))
                .as("it waited for the status to change")
                .isGreaterThanOrEqualTo(Duration.ofMillis(600))
                .isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aReadyNodeEndsTheWaitAtOnce() throws Exception {
        cluster.node("pve-x", "True", "KubeletReady", "kubelet is posting ready status");
        Instant start = Instant.now();

        clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(20)));

        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aNodeNeverReadyFailsAtTheDeadlineWithItsLastCondition() {
        cluster.node("pve-x", "False", "KubeletNotReady", "container runtime network not ready: cni not initialized");
        Instant deadline = in(Duration.ofMillis(1500));

        assertThatThrownBy(() -> clusters.waitReady("prod-1", "pve-x", deadline))
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("node pve-x of cluster prod-1 did not become Ready by the deadline")
                .hasMessageContaining("node pve-x is not Ready (Ready=False: KubeletNotReady container runtime"
                        + " network not ready: cni not initialized)")
                .hasMessageNotContaining(TOKEN)
                .satisfies(e -> assertThat(((BackendException) e).isTransient()).isFalse());
        assertThat(Instant.now()).as("the deadline is honoured").isBetween(deadline, deadline.plusSeconds(5));
    }

    @Test
    void aNodeThatNeverRegistersIsNamedAsMissing() {
        assertThatThrownBy(() -> clusters.waitReady("prod-1", "pve-y", in(Duration.ofMillis(800))))
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("no node named pve-y in cluster prod-1");
    }

    @Test
    void aNodeWithoutAReadyConditionIsNotReady() {
        cluster.admin
                .nodes()
                .resource(new io.fabric8.kubernetes.api.model.NodeBuilder()
                        .withNewMetadata()
                        .withName("pve-z")
                        .endMetadata()
                        .build())
                .create();

        assertThatThrownBy(() -> clusters.waitReady("prod-1", "pve-z", in(Duration.ofMillis(600))))
                .hasMessageContaining("node pve-z is not Ready (no Ready condition yet)");
    }

    @Test
    void aClusterWithoutAKubeconfigFailsAtOnceNamingTheFlags() {
        Instant start = Instant.now();

        assertThatThrownBy(() -> clusters.waitReady("staging", "pve-x", in(Duration.ofSeconds(30))))
                .isInstanceOf(BackendException.class)
                .hasMessage("no kubeconfig for cluster staging: give one with --cluster-kubeconfig staging=PATH or"
                        + " put staging.kubeconfig in the directory of --cluster-kubeconfig-dir");
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(2));
        assertThat(clusters.reaches("staging")).isFalse();
        assertThat(clusters.reaches("prod-1")).isTrue();
    }

    @Test
    void credentialsTheApiServerRefusesFailAtOnce() {
        cluster.server
                .expect()
                .get()
                .withPath("/api/v1/nodes/pve-x")
                .andReturn(
                        403,
                        new io.fabric8.kubernetes.api.model.StatusBuilder()
                                .withCode(403)
                                .withReason("Forbidden")
                                .withMessage("nodes \"pve-x\" is forbidden: User \"bigfleet\" cannot get resource"
                                        + " \"nodes\"")
                                .build())
                .always();
        Instant start = Instant.now();

        assertThatThrownBy(() -> clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(60))))
                .hasMessageContaining(
                        "cluster prod-1 refuses to show node pve-x (HTTP 403: nodes \"pve-x\" is" + " forbidden")
                .hasMessageContaining("needs get on nodes")
                .hasMessageNotContaining(TOKEN);
        // at once: long before the deadline (the first request of a test JVM takes a few seconds)
        assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(30));
        assertThat(cluster.server.getRequestCount())
                .as("asked once, not again and again")
                .isLessThan(4);
    }

    @Test
    void theBearerTokenOfTheKubeconfigIsSent() throws Exception {
        cluster.node("pve-x", "True", "KubeletReady", "");

        clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(20)));

        assertThat(cluster.server.getLastRequest().getHeader("Authorization")).isEqualTo("Bearer " + TOKEN);
    }

    @Test
    void aServerCertificateTheKubeconfigsCaDoesNotVouchForIsRefused() throws Exception {
        cluster.node("pve-x", "True", "KubeletReady", "");
        try (TestingKubernetesCluster other = new TestingKubernetesCluster()) {
            // the kubeconfig names this server but trusts another one's certificate
            Path wrongCa = cluster.kubeconfig(dir.resolve("wrong-ca.yaml"), TOKEN, other.certificate());
            try (WorkloadClusters untrusting = new KubernetesWorkloadClusters(kubeconfigs(wrongCa), FAST)) {
                assertThatThrownBy(() -> untrusting.waitReady("prod-1", "pve-x", in(Duration.ofMillis(1500))))
                        .isInstanceOf(BackendException.class)
                        .hasMessageContaining("the API server of cluster prod-1 (" + cluster.url())
                        .hasMessageContaining("did not answer")
                        .hasMessageNotContaining(TOKEN);
            }
        }
    }

    @Test
    void anInterruptedWaitStopsPromptly() throws Exception {
        cluster.node("pve-x", "False", "KubeletNotReady", "");
        AtomicReference<Thread> waiter = new AtomicReference<>();
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            waiter.set(Thread.currentThread());
            try {
                clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(60)));
                return null;
            } catch (BackendException e) {
                return e;
            }
        });
        Thread.sleep(500);
        waiter.get().interrupt();

        Throwable failure = outcome.get(10, TimeUnit.SECONDS);

        assertThat(failure)
                .isInstanceOf(BackendException.class)
                .hasMessageContaining("cancelled while waiting for node pve-x of cluster prod-1 to be Ready");
    }

    @Test
    void aKubeconfigThatChangesOnDiskIsReadAgain() throws Exception {
        cluster.node("pve-x", "True", "KubeletReady", "");
        clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(20)));
        try (TestingKubernetesCluster replacement = new TestingKubernetesCluster()) {
            // the same file now reaches another API server, where pve-x does not exist
            Path file = dir.resolve("prod-1.yaml");
            Path next = replacement.kubeconfig(dir.resolve("next.yaml"), TOKEN);
            Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Thread.sleep(1200); // the file is looked at once a second at most

            assertThatThrownBy(() -> clusters.waitReady("prod-1", "pve-x", in(Duration.ofMillis(800))))
                    .hasMessageContaining("no node named pve-x in cluster prod-1");
            replacement.node("pve-x", "True", "KubeletReady", "");
            clusters.waitReady("prod-1", "pve-x", in(Duration.ofSeconds(20)));
        }
    }
}
