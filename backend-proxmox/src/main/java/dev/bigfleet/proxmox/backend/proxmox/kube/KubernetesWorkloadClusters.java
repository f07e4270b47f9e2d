package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.backend.proxmox.files.WatchedFile;
import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** {@link WorkloadClusters} through fabric8's Kubernetes client, one client per cluster id. */
final class KubernetesWorkloadClusters implements WorkloadClusters {
    private final ClusterKubeconfigs kubeconfigs;
    private final Pacing pacing;
    private final Map<String, ClusterClient> clients = new ConcurrentHashMap<>();

    KubernetesWorkloadClusters(ClusterKubeconfigs kubeconfigs) {
        this(kubeconfigs, Pacing.DEFAULT);
    }

    /** @param pacing the pauses between two looks (tests make them short) */
    KubernetesWorkloadClusters(ClusterKubeconfigs kubeconfigs, Pacing pacing) {
        this.kubeconfigs = Objects.requireNonNull(kubeconfigs, "kubeconfigs");
        this.pacing = Objects.requireNonNull(pacing, "pacing");
    }

    @Override
    public boolean reaches(String clusterId) {
        try {
            return kubeconfigs.find(clusterId).isPresent();
        } catch (IllegalArgumentException e) {
            return true; // a file is there, but unusable: using it says why
        }
    }

    @Override
    public void waitReady(String clusterId, String nodeName, Instant deadline) throws BackendException {
        new NodeReadyWait(client(clusterId), clusterId, nodeName, pacing).await(deadline);
    }

    @Override
    public void drain(String clusterId, String nodeName, long gracePeriodSeconds, Instant deadline)
            throws BackendException {
        new NodeDrain(client(clusterId), clusterId, nodeName, gracePeriodSeconds, pacing).run(deadline);
    }

    /** The cluster's client holder; fails at once, naming the flags, when it has no kubeconfig. */
    private ClusterClient client(String clusterId) throws BackendException {
        Objects.requireNonNull(clusterId, "clusterId");
        Optional<WatchedFile<Kubeconfig>> file;
        try {
            file = kubeconfigs.find(clusterId);
        } catch (IllegalArgumentException e) {
            throw new BackendException("cluster " + clusterId + ": " + e.getMessage());
        }
        if (file.isEmpty()) {
            throw new BackendException(kubeconfigs.missing(clusterId));
        }
        return clients.computeIfAbsent(clusterId, id -> new ClusterClient(id, file.get()));
    }

    @Override
    public void close() {
        clients.values().forEach(ClusterClient::close);
        clients.clear();
    }

    @Override
    public String toString() {
        return kubeconfigs.toString();
    }
}
