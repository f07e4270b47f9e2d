package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.spi.BackendException;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A drain through the cluster's API, as {@code kubectl drain --ignore-daemonsets
 * --delete-emptydir-data --force} does it, then the Node's deletion. Each round lists the node's
 * pods and evicts those not yet on their way out; a PodDisruptionBudget's refusal (429) is tried
 * again next round; the drain is over when no pod but DaemonSet and mirror pods is left. A round
 * that cannot ask the API server is retried, until the deadline. Nothing is remembered between
 * runs: a second run finds the node cordoned, its pods gone, or the node deleted, and carries on.
 */
final class NodeDrain {
    /** The annotation of a static pod's mirror in the API. */
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    /** Why a pod is still there, when a PodDisruptionBudget refused its eviction. */
    static final String PDB_REFUSED = "eviction refused by a PodDisruptionBudget (429 Too Many Requests)";

    private static final Logger log = LoggerFactory.getLogger(NodeDrain.class);
    private static final int MAX_NAMED = 10;

    private final ClusterClient cluster;
    private final String clusterId;
    private final String node;
    private final long gracePeriodSeconds;
    private final Pacing pacing;
    private final String what;

    NodeDrain(ClusterClient cluster, String clusterId, String node, long gracePeriodSeconds, Pacing pacing) {
        this.cluster = cluster;
        this.clusterId = clusterId;
        this.node = node;
        this.gracePeriodSeconds = gracePeriodSeconds;
        this.pacing = pacing;
        this.what = "draining node " + node + " of cluster " + clusterId;
    }

    void run(Instant deadline) throws BackendException {
        Pacing.Pauses pauses = pacing.start();
        Set<String> evicted = new HashSet<>();
        Map<String, String> left = new LinkedHashMap<>();
        String trouble = "";
        boolean cordoned = false;
        while (true) {
            checkInterrupted();
            try {
                KubernetesClient client = cluster.current();
                if (!cordoned) {
                    if (!cordon(client)) {
                        log.info("drain: node {} of cluster {} is not there (already deleted)", node, clusterId);
                        return;
                    }
                    cordoned = true;
                }
                left = evictRound(client, evicted);
                trouble = "";
                if (left.isEmpty()) {
                    deleteNode(client);
                    return;
                }
            } catch (KubernetesClientException e) {
                if (ApiProblem.isInterruption(e)) {
                    throw Pacing.interrupted(what);
                }
                if (ApiProblem.isRefusal(e)) {
                    throw new BackendException("cluster " + clusterId + " refused a step of the drain of node " + node
                            + " (" + ApiProblem.describe(e) + "); its kubeconfig's user needs get, patch and delete"
                            + " on nodes, list on pods and create on pods/eviction");
                }
                trouble = ApiProblem.trouble(clusterId, cluster.server(), e);
            }
            if (!Instant.now().isBefore(deadline)) {
                throw new BackendException(failure(left, trouble));
            }
            pauses.pause(deadline, what);
        }
    }

    /**
     * Marks the node unschedulable unless it is already.
     *
     * @return false when there is no such node
     */
    private boolean cordon(KubernetesClient client) {
        Node seen = client.nodes().withName(node).get();
        if (seen == null) {
            return false;
        }
        if (seen.getSpec() != null && Boolean.TRUE.equals(seen.getSpec().getUnschedulable())) {
            return true;
        }
        try {
            client.nodes().withName(node).edit(n -> {
                if (n.getSpec() == null) {
                    n.setSpec(new NodeSpec());
                }
                n.getSpec().setUnschedulable(true);
                return n;
            });
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return false;
            }
            throw e;
        }
        log.info("drain: cordoned node {} of cluster {}", node, clusterId);
        return true;
    }

    /**
     * One round: evicts each pod of the node that is not yet on its way out.
     *
     * @return the pods still on the node, each with why
     */
    private Map<String, String> evictRound(KubernetesClient client, Set<String> evicted) throws BackendException {
        List<Pod> pods = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", node)
                .list()
                .getItems();
        Map<String, String> left = new LinkedHashMap<>();
        for (Pod pod : pods) {
            checkInterrupted();
            ObjectMeta meta = pod.getMetadata();
            if (meta == null
                    || pod.getSpec() == null
                    || !node.equals(pod.getSpec().getNodeName())
                    || stays(pod)) {
                continue;
            }
            String key = meta.getNamespace() + "/" + meta.getName();
            if (meta.getDeletionTimestamp() != null || evicted.contains(meta.getUid())) {
                left.put(key, "terminating");
                continue;
            }
            try {
                if (client.pods()
                        .inNamespace(meta.getNamespace())
                        .withName(meta.getName())
                        .evict(eviction(meta))) {
                    evicted.add(meta.getUid());
                    left.put(key, "terminating");
                    log.info("drain: evicted pod {} from node {} of cluster {}", key, node, clusterId);
                } else {
                    left.put(key, PDB_REFUSED);
                }
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    continue; // gone already
                }
                if (ApiProblem.isInterruption(e) || ApiProblem.isRefusal(e)) {
                    throw e;
                }
                left.put(key, "eviction failed: " + ApiProblem.describe(e));
            }
        }
        return left;
    }

    private Eviction eviction(ObjectMeta pod) {
        DeleteOptionsBuilder options = new DeleteOptionsBuilder();
        if (gracePeriodSeconds >= 0) {
            options.withGracePeriodSeconds(gracePeriodSeconds);
        }
        return new EvictionBuilder()
                .withNewMetadata()
                .withName(pod.getName())
                .withNamespace(pod.getNamespace())
                .endMetadata()
                .withDeleteOptions(options.build())
                .build();
    }

    /** DaemonSet pods (their controller would put them back) and mirror pods (the kubelet's) stay. */
    static boolean stays(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        if (meta.getAnnotations() != null && meta.getAnnotations().containsKey(MIRROR_ANNOTATION)) {
            return true;
        }
        List<OwnerReference> owners = meta.getOwnerReferences();
        return owners != null
                && owners.stream()
                        .anyMatch(o -> "DaemonSet".equals(o.getKind()) && Boolean.TRUE.equals(o.getController()));
    }

    private void deleteNode(KubernetesClient client) {
        try {
            client.nodes().withName(node).delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
        log.info("drain: node {} of cluster {} drained and deleted", node, clusterId);
    }

    private String failure(Map<String, String> left, String trouble) {
        StringBuilder message = new StringBuilder(
                "the drain of node " + node + " of cluster " + clusterId + " did not finish by the deadline");
        if (!left.isEmpty()) {
            message.append(": ")
                    .append(left.size())
                    .append(left.size() == 1 ? " pod is" : " pods are")
                    .append(" still on it: ")
                    .append(left.entrySet().stream()
                            .limit(MAX_NAMED)
                            .map(e -> e.getKey() + " (" + e.getValue() + ")")
                            .collect(Collectors.joining(", ")))
                    .append(left.size() > MAX_NAMED ? ", ..." : "");
        }
        if (!trouble.isEmpty()) {
            message.append(left.isEmpty() ? ": " : "; ").append(trouble);
        }
        return message.toString();
    }

    private void checkInterrupted() throws BackendException {
        if (Thread.currentThread().isInterrupted()) {
            throw Pacing.interrupted(what);
        }
    }
}
