package dev.bigfleet.proxmox.server.metrics;

import dev.bigfleet.proxmox.server.config.InventoryConfig;
import dev.bigfleet.proxmox.spi.BackendException;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;

/**
 * {@code bigfleet_proxmox_node_schedulable{node}} for each configured node, from the backend's node
 * list read at most every few seconds whatever the scrape rate; 0 while the list cannot be read.
 */
@Singleton
public final class NodeMetrics {
    static final Duration FRESH = Duration.ofSeconds(5);

    private final ProxmoxBackend backend;
    private List<NodeStatus> nodes = List.of();
    private long readAt = Long.MIN_VALUE;

    @Inject
    public NodeMetrics(SeriesRegistry registry, InventoryConfig inventory, ProxmoxBackend backend) {
        this.backend = backend;
        for (String node : inventory.nodes()) {
            registry.gauge(Families.NODE_SCHEDULABLE, () -> schedulable(node), node);
        }
    }

    private int schedulable(String node) {
        return nodes().stream().anyMatch(n -> n.name().equals(node) && n.schedulable()) ? 1 : 0;
    }

    private synchronized List<NodeStatus> nodes() {
        long now = System.nanoTime();
        if (readAt == Long.MIN_VALUE || now - readAt >= FRESH.toNanos()) {
            readAt = now;
            try {
                nodes = backend.nodes();
            } catch (BackendException | RuntimeException e) {
                nodes = List.of();
            }
        }
        return nodes;
    }
}
