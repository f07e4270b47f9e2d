package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.HaStatus;
import dev.bigfleet.proxmox.backend.proxmox.client.NodeEntry;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a node may take a new VM: online in {@code /nodes}, in a quorate cluster, and not in
 * maintenance (or being fenced) as pve-ha-manager reports it. Maintenance is not a node status:
 * {@code /nodes} keeps saying {@code online}, only the HA manager's status shows it, which needs
 * {@code Sys.Audit} on {@code /}; without it only offline nodes are seen (said once, in the log).
 * Reads are shared for a few seconds, so a burst of Creates costs two calls.
 */
final class NodeSchedulability {
    static final Duration FRESH = Duration.ofSeconds(5);
    private static final Logger log = LoggerFactory.getLogger(NodeSchedulability.class);

    private record Reading(List<NodeEntry> nodes, Optional<HaStatus> ha, long at) {}

    private final PveClient api;
    private final AtomicBoolean haHiddenSaid = new AtomicBoolean();
    private volatile Reading last;

    NodeSchedulability(PveClient api) {
        this.api = api;
    }

    /** Why {@code node} takes no new VM now, or empty when it may. */
    Optional<String> refusal(String node) throws BackendException {
        Reading r = read();
        Optional<NodeEntry> entry =
                r.nodes().stream().filter(n -> n.node().equals(node)).findFirst();
        if (entry.isPresent() && !entry.get().online()) {
            return Optional.of("it is offline");
        }
        return r.ha().flatMap(ha -> ha.refusal(node));
    }

    /** Fails a Create bound for {@code node} when the node may not take it. */
    void require(String node) throws BackendException {
        Optional<String> why = refusal(node);
        if (why.isPresent()) {
            throw new BackendException("node " + node + " takes no new VM: " + why.get());
        }
    }

    private Reading read() throws BackendException {
        Reading r = last;
        if (r != null && System.nanoTime() - r.at() < FRESH.toNanos()) {
            return r;
        }
        List<NodeEntry> nodes;
        try {
            nodes = api.nodes();
        } catch (PveApiException e) {
            throw ApiFailures.wrap("read the nodes' status: " + e.getMessage(), e);
        }
        Optional<HaStatus> ha;
        try {
            ha = Optional.of(api.haStatus());
        } catch (PveApiException e) {
            if (!e.isStatus(403) && !e.isStatus(501)) {
                throw ApiFailures.wrap("read the HA manager's status: " + e.getMessage(), e);
            }
            if (haHiddenSaid.compareAndSet(false, true)) {
                log.warn(
                        "the HA manager's status is not readable ({}): nodes in maintenance mode and a lost quorum are not"
                                + " seen before a clone; grant Sys.Audit on / (the setup kit does)",
                        e.getMessage());
            }
            ha = Optional.empty();
        }
        Reading fresh = new Reading(nodes, ha, System.nanoTime());
        last = fresh;
        return fresh;
    }
}
