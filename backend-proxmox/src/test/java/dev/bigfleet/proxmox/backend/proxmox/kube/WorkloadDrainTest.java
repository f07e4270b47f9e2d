package dev.bigfleet.proxmox.backend.proxmox.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.testing.TestingKubernetesCluster;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drain through the workload cluster's API, against fabric8's mock API server over HTTPS (CRUD mode;
 * PodDisruptionBudget refusals are expectations answering the eviction with 429).
 */
class WorkloadDrainTest {
    private static final String TOKEN = "kubeconfig-token-must-not-leak";
    private static final Pacing FAST = new Pacing(Duration.ofMillis(50), Duration.ofMillis(200));

    @TempDir
    Path dir;

    private TestingKubernetesCluster cluster;
    private WorkloadClusters clusters;

    @BeforeEach
    void start() throws Exception {
        cluster = new TestingKubernetesCluster();
        Path kubeconfig = cluster.kubeconfig(dir.resolve("prod-1.yaml"), TOKEN);
        clusters = new KubernetesWorkloadClusters(
                ClusterKubeconfigs.parse(
                        Optional.of("prod-1=" + kubeconfig),
                        "--cluster-kubeconfig",
                        Optional.empty(),
                        "--cluster-kubeconfig-dir"),
                FAST);
        cluster.node("pve-x", "True", "KubeletReady", "");
        cluster.node("pve-other", "True", "KubeletReady", "");
    }

    @AfterEach
    void stop() {
        clusters.close();
        cluster.close();
    }

    private static Instant in(Duration d) {
        return Instant.now().plus(d);
    }

    private Optional<Pod> pod(String namespace, String name) {
        return Optional.ofNullable(
                cluster.admin.pods().inNamespace(namespace).withName(name).get());
    }

    private boolean nodeExists(String name) {
        return cluster.admin.nodes().withName(name).get() != null;
    }

    @Test
    void evictsOrdinaryPodsLeavesDaemonSetAndMirrorPodsAndDeletesTheNode() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.pod("batch", "bare", "pve-x", "");
        cluster.pod("kube-system", "cilium-abcde", "pve-x", "DaemonSet");
        cluster.mirrorPod("kube-system", "kube-apiserver-pve-x", "pve-x");
        cluster.pod("default", "web-2", "pve-other", "ReplicaSet");

        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));

        assertThat(cluster.evictions)
                .extracting(e ->
                        e.getMetadata().getNamespace() + "/" + e.getMetadata().getName())
                .containsExactlyInAnyOrder("default/web-1", "batch/bare");
        assertThat(pod("default", "web-1")).as("evicted").isEmpty();
        assertThat(pod("batch", "bare")).as("evicted").isEmpty();
        assertThat(pod("kube-system", "cilium-abcde"))
                .as("a DaemonSet pod stays")
                .isPresent();
        assertThat(pod("kube-system", "kube-apiserver-pve-x"))
                .as("a mirror pod stays")
                .isPresent();
        assertThat(pod("default", "web-2")).as("another node's pod").isPresent();
        assertThat(nodeExists("pve-x")).as("the Node is deleted").isFalse();
        assertThat(nodeExists("pve-other")).isTrue();
        // cordoned first, then the evictions, the Node deleted last
        List<String> changes = cluster.changesWith(TOKEN);
        assertThat(changes).first().isEqualTo("PATCH /api/v1/nodes/pve-x");
        assertThat(changes).last().isEqualTo("DELETE /api/v1/nodes/pve-x");
        assertThat(changes)
                .containsExactlyInAnyOrder(
                        "PATCH /api/v1/nodes/pve-x",
                        "POST /api/v1/namespaces/default/pods/web-1/eviction",
                        "POST /api/v1/namespaces/batch/pods/bare/eviction",
                        "DELETE /api/v1/nodes/pve-x");
    }

    @Test
    void theNodeIsCordonedBeforeAnyPodIsEvicted() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.terminationDelay = Duration.ofMillis(600);
        cluster.refuseEvictions("default", "web-1", 2);

        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));

        assertThat(cluster.changesWith(TOKEN)).startsWith("PATCH /api/v1/nodes/pve-x");
    }

    @Test
    void theGracePeriodReachesEachEvictionsDeleteOptions() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.pod("default", "web-2", "pve-x", "ReplicaSet");

        clusters.drain("prod-1", "pve-x", 42, in(Duration.ofSeconds(20)));

        assertThat(cluster.evictions).hasSize(2);
        assertThat(cluster.evictions)
                .extracting(e -> e.getDeleteOptions().getGracePeriodSeconds())
                .containsOnly(42L);
        assertThat(cluster.evictions).extracting(Eviction::getApiVersion).containsOnly("policy/v1");
    }

    @Test
    void aNegativeGracePeriodLeavesEachPodItsOwn() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");

        clusters.drain("prod-1", "pve-x", -1, in(Duration.ofSeconds(20)));

        assertThat(cluster.evictions)
                .singleElement()
                .satisfies(e -> assertThat(
                                e.getDeleteOptions() == null
                                        ? null
                                        : e.getDeleteOptions().getGracePeriodSeconds())
                        .isNull());
    }

    @Test
    void anEvictionAPodDisruptionBudgetRefusesIsTriedAgainUntilItIsAllowed() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.pod("default", "web-2", "pve-x", "ReplicaSet");
        cluster.refuseEvictions("default", "web-1", 3);

        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));

        assertThat(cluster.evictionsOf("web-1"))
                .as("three refusals, then the eviction")
                .hasSize(4);
        assertThat(cluster.evictionsOf("web-2")).hasSize(1);
        assertThat(pod("default", "web-1")).isEmpty();
        assertThat(nodeExists("pve-x")).isFalse();
    }

    @Test
    void aPodDisruptionBudgetThatNeverAllowsTheEvictionFailsTheDrainByItsDeadlineNamingThePod() {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.pod("default", "web-2", "pve-x", "ReplicaSet");
        cluster.refuseEvictions("default", "web-1", -1);
        Instant deadline = in(Duration.ofMillis(1500));

        assertThatThrownBy(() -> clusters.drain("prod-1", "pve-x", 30, deadline))
                .isInstanceOf(BackendException.class)
                .hasMessage("the drain of node pve-x of cluster prod-1 did not finish by the deadline: 1 pod is still"
                        + " on it: default/web-1 (eviction refused by a PodDisruptionBudget (429 Too Many"
                        + " Requests))");
        assertThat(Instant.now()).isBetween(deadline, deadline.plusSeconds(5));
        assertThat(cluster.evictionsOf("web-1").size())
                .as("tried again and again")
                .isGreaterThan(2);
        assertThat(nodeExists("pve-x"))
                .as("a Node with pods left is not deleted")
                .isTrue();
        assertThat(cluster.admin.nodes().withName("pve-x").get().getSpec().getUnschedulable())
                .as("but it stays cordoned")
                .isTrue();
    }

    @Test
    void evictedPodsAreWaitedForBeforeTheNodeIsDeleted() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.terminationDelay = Duration.ofMillis(800);
        Instant start = Instant.now();

        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));

        assertThat(Duration.between(start, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(700));
        List<String> changes = cluster.changes;
        assertThat(changes.indexOf("DELETE /api/v1/namespaces/default/pods/web-1"))
                .as("the pod went before the Node")
                .isNotNegative()
                .isLessThan(changes.indexOf("DELETE /api/v1/nodes/pve-x"));
        assertThat(cluster.evictionsOf("web-1"))
                .as("evicted once, then waited for")
                .hasSize(1);
    }

    @Test
    void aPodThatNeverGoesFailsTheDrainByItsDeadline() {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.terminationDelay = Duration.ofMinutes(5);

        assertThatThrownBy(() -> clusters.drain("prod-1", "pve-x", 30, in(Duration.ofMillis(1200))))
                .hasMessageEndingWith("1 pod is still on it: default/web-1 (terminating)")
                .hasMessageNotContaining(TOKEN);
    }

    @Test
    void anApiServerThatKeepsFailingFailsTheDrainByItsDeadlineSayingWhat() {
        cluster.server
                .expect()
                .get()
                .withPath("/api/v1/nodes/pve-x")
                .andReturn(
                        500,
                        new io.fabric8.kubernetes.api.model.StatusBuilder()
                                .withCode(500)
                                .withMessage("etcdserver: request timed out")
                                .build())
                .always();
        Instant deadline = in(Duration.ofMillis(1200));

        assertThatThrownBy(() -> clusters.drain("prod-1", "pve-x", 30, deadline))
                .isInstanceOf(BackendException.class)
                .hasMessage("the drain of node pve-x of cluster prod-1 did not finish by the deadline: the API server"
                        + " of cluster prod-1 (" + cluster.url() + ") answered HTTP 500: etcdserver: request timed"
                        + " out");
        assertThat(Instant.now()).isBetween(deadline, deadline.plusSeconds(5));
    }

    @Test
    void aSecondRunAfterACompletedDrainSucceeds() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));
        int evictions = cluster.evictions.size();

        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));

        assertThat(cluster.evictions).hasSize(evictions);
        assertThat(nodeExists("pve-x")).isFalse();
    }

    @Test
    void aRunAfterAPartialOneFinishesTheDrain() throws Exception {
        cluster.pod("default", "web-1", "pve-x", "ReplicaSet");
        cluster.pod("default", "web-2", "pve-x", "ReplicaSet");
        cluster.refuseEvictions("default", "web-2", 1_000);
        assertThatThrownBy(() -> clusters.drain("prod-1", "pve-x", 30, in(Duration.ofMillis(800))))
                .hasMessageContaining("default/web-2 (eviction refused by a PodDisruptionBudget");
        assertThat(pod("default", "web-1")).isEmpty();
        cluster.server.clearExpectations(); // the budget allows it now

        clusters.drain("prod-1", "pve-x", 30, in(Duration.ofSeconds(20)));

        assertThat(cluster.evictionsOf("web-1")).as("not evicted again").hasSize(1);
        assertThat(pod("default", "web-2")).isEmpty();
        assertThat(nodeExists("pve-x")).isFalse();
    }

    @Test
    void aNodeThatIsNotThereIsAlreadyDrained() throws Exception {
        clusters.drain("prod-1", "pve-gone", 30, in(Duration.ofSeconds(20)));

        assertThat(cluster.changesWith(TOKEN)).isEmpty();
    }

    @Test
    void aClusterWithoutAKubeconfigFailsAtOnce() {
        assertThatThrownBy(() -> clusters.drain("staging", "pve-x", 30, in(Duration.ofSeconds(30))))
                .isInstanceOf(BackendException.class)
                .hasMessageStartingWith(
                        "no kubeconfig for cluster staging: give one with --cluster-kubeconfig" + " staging=PATH");
        assertThat(cluster.changesWith(TOKEN)).isEmpty();
    }
}
