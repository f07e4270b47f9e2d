package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Instant;

/**
 * The workload clusters' Kubernetes APIs, for guests that cannot run commands through the guest
 * agent (Talos has no shell; hardened images refuse guest-exec): a Configure waits there for its node
 * to be Ready, a Drain cordons, evicts and deletes it there. Each BigFleet cluster id is reached with
 * its own kubeconfig ({@link ClusterKubeconfigs}).
 *
 * <p>Every failure is a definite {@link BackendException} of one line that names the cluster and
 * the node and never holds a credential; the waits honour their deadline and stop when the thread is
 * interrupted. Tests of other code may substitute their own implementation.
 */
public interface WorkloadClusters extends AutoCloseable {
    /**
     * The clusters reached through the kubeconfigs of {@code --cluster-kubeconfig} and {@code
     * --cluster-kubeconfig-dir}, with the fabric8 client over the JDK's HTTP client; a client is made
     * the first time a cluster is asked for, and made again when its kubeconfig changes.
     */
    static WorkloadClusters through(ClusterKubeconfigs kubeconfigs) {
        return new KubernetesWorkloadClusters(kubeconfigs);
    }

    /** Whether a kubeconfig is configured for {@code clusterId} (a bad one counts: using it says why). */
    boolean reaches(String clusterId);

    /**
     * Returns once the Node named {@code nodeName} in cluster {@code clusterId} has the condition
     * {@code Ready=True}. A node that does not exist yet, is not Ready yet, or an API server that does
     * not answer are waited out until {@code deadline}.
     *
     * @throws BackendException at once for a cluster without a kubeconfig or credentials the API
     *     server refuses (401, 403); at the deadline with the last thing seen ({@code node pve-x is not
     *     Ready (Ready=False: KubeletNotReady ...)}, {@code no node named pve-x in cluster prod-1});
     *     when the thread is interrupted
     */
    void waitReady(String clusterId, String nodeName, Instant deadline) throws BackendException;

    /**
     * Drains the Node named {@code nodeName} in cluster {@code clusterId} and deletes it: cordons it,
     * evicts each of its pods (DaemonSet pods and mirror pods excepted) through the Eviction API with
     * {@code gracePeriodSeconds} (negative: each pod's own), retries evictions a PodDisruptionBudget
     * refuses, waits for the evicted pods to be gone, then deletes the Node. Safe to run again after a
     * partial run: a node already cordoned, pods already gone and a node already deleted are success.
     *
     * @throws BackendException at once for a cluster without a kubeconfig or credentials the API
     *     server refuses; at the deadline naming the pods still on the node and why; when the thread
     *     is interrupted
     */
    void drain(String clusterId, String nodeName, long gracePeriodSeconds, Instant deadline) throws BackendException;

    /** Closes the clients made so far. */
    @Override
    void close();
}
