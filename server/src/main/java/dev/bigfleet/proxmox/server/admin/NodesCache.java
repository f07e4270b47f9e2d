package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The backend's node list, read at most once per {@link #MAX_AGE}: an open admin page polls, and
 * each read of a real cluster is an API call.
 */
final class NodesCache {
    static final Duration MAX_AGE = Duration.ofSeconds(5);

    /** One read of the node list, or its failure. */
    record Read(List<NodeStatus> nodes, Instant at, String error) {}

    private final ProxmoxBackend backend;
    private final Clock clock;
    private Read last;

    NodesCache(ProxmoxBackend backend, Clock clock) {
        this.backend = backend;
        this.clock = clock;
    }

    synchronized Read get() {
        Instant now = clock.instant();
        if (last == null || last.at().plus(MAX_AGE).isBefore(now)) {
            try {
                last = new Read(List.copyOf(backend.nodes()), now, "");
            } catch (Exception e) {
                String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                last = new Read(last == null ? List.of() : last.nodes(), now, message.replace('\n', ' '));
            }
        }
        return last;
    }
}
