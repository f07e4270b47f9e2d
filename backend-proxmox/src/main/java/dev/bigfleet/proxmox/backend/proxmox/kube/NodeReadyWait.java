package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.spi.BackendException;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Looks at the Node by name until its {@code Ready} condition is {@code True}, or the deadline
 * passes: a node that has not registered yet, one that is not Ready yet and an API server that does
 * not answer are waited out; credentials the API server refuses fail at once. The failure at the
 * deadline tells the last thing seen.
 */
final class NodeReadyWait {
    private final ClusterClient cluster;
    private final String clusterId;
    private final String node;
    private final Pacing pacing;

    NodeReadyWait(ClusterClient cluster, String clusterId, String node, Pacing pacing) {
        this.cluster = cluster;
        this.clusterId = clusterId;
        this.node = node;
        this.pacing = pacing;
    }

    void await(Instant deadline) throws BackendException {
        String waitingFor = "waiting for node " + node + " of cluster " + clusterId + " to be Ready";
        Pacing.Pauses pauses = pacing.start();
        String last = "no answer from the API server yet";
        while (true) {
            if (Thread.currentThread().isInterrupted()) {
                throw Pacing.interrupted(waitingFor);
            }
            try {
                Optional<String> notReady =
                        notReady(cluster.current().nodes().withName(node).get());
                if (notReady.isEmpty()) {
                    return;
                }
                last = notReady.get();
            } catch (KubernetesClientException e) {
                if (ApiProblem.isInterruption(e)) {
                    throw Pacing.interrupted(waitingFor);
                }
                if (ApiProblem.isRefusal(e)) {
                    throw new BackendException("cluster " + clusterId + " refuses to show node " + node + " ("
                            + ApiProblem.describe(e) + "); its kubeconfig's user needs get on nodes");
                }
                last = ApiProblem.trouble(clusterId, cluster.server(), e);
            }
            if (!Instant.now().isBefore(deadline)) {
                throw new BackendException(
                        "node " + node + " of cluster " + clusterId + " did not become Ready by the deadline: " + last);
            }
            pauses.pause(deadline, waitingFor);
        }
    }

    /** Empty when the node is Ready; else what it is instead. */
    private Optional<String> notReady(Node seen) {
        if (seen == null) {
            return Optional.of("no node named " + node + " in cluster " + clusterId);
        }
        List<NodeCondition> conditions =
                seen.getStatus() == null ? null : seen.getStatus().getConditions();
        Optional<NodeCondition> ready = conditions == null
                ? Optional.empty()
                : conditions.stream()
                        .filter(c -> c != null && "Ready".equals(c.getType()))
                        .findFirst();
        if (ready.isEmpty()) {
            return Optional.of("node " + node + " is not Ready (no Ready condition yet)");
        }
        NodeCondition c = ready.get();
        if ("True".equals(c.getStatus())) {
            return Optional.empty();
        }
        return Optional.of("node " + node + " is not Ready ("
                + ApiProblem.shorten("Ready=" + c.getStatus()
                        + (c.getReason() == null || c.getReason().isBlank() ? "" : ": " + c.getReason())
                        + (c.getMessage() == null || c.getMessage().isBlank() ? "" : " " + c.getMessage()))
                + ")");
    }
}
