package dev.bigfleet.proxmox.backend.proxmox.kube;

import dev.bigfleet.proxmox.backend.proxmox.files.WatchedFile;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One cluster's client, made from its kubeconfig when first needed and made again when the file
 * has changed (the old client is closed; a call it was making fails and is retried by its loop).
 * Always the JDK's HTTP client, always verifying the API server's certificate.
 */
final class ClusterClient implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ClusterClient.class);

    private final String clusterId;
    private final WatchedFile<Kubeconfig> file;
    private Kubeconfig madeFrom;
    private KubernetesClient client;

    ClusterClient(String clusterId, WatchedFile<Kubeconfig> file) {
        this.clusterId = clusterId;
        this.file = file;
    }

    /** The client for the kubeconfig's latest usable content. */
    synchronized KubernetesClient current() {
        Kubeconfig now = file.current();
        if (client == null || now != madeFrom) {
            if (client != null) {
                log.info("cluster {}: its kubeconfig changed, reconnecting to {}", clusterId, now.server());
                client.close();
            }
            client = new KubernetesClientBuilder()
                    .withHttpClientFactory(new JdkHttpClientFactory())
                    .withConfig(now.config())
                    .build();
            madeFrom = now;
        }
        return client;
    }

    /** The API server's URL, for messages. */
    synchronized String server() {
        return file.current().server();
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
            madeFrom = null;
        }
    }
}
