package dev.bigfleet.proxmox.server.admin;

import dev.bigfleet.proxmox.api.InstanceType;
import dev.bigfleet.proxmox.api.InstanceTypeCatalog;
import dev.bigfleet.proxmox.api.Machine;
import dev.bigfleet.proxmox.spi.ApiStatus;
import dev.bigfleet.proxmox.spi.NodeStatus;
import dev.bigfleet.proxmox.spi.ProxmoxBackend;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes as the backend last reported them (read at most every few seconds), with the VMs and
 * vCPUs this provider's machines hold on each. While the API is unreachable no node is reported
 * online: the last answer may be stale.
 */
final class NodesView {
    private final ProxmoxBackend backend;
    private final InstanceTypeCatalog catalog;
    private final NodesCache cache;

    NodesView(ProxmoxBackend backend, InstanceTypeCatalog catalog) {
        this.backend = backend;
        this.catalog = catalog;
        this.cache = new NodesCache(backend, Clock.systemUTC());
    }

    NodeList of(List<Machine> machines) {
        NodesCache.Read read = cache.get();
        Map<String, int[]> placed = new HashMap<>(); // vms, vcpus
        for (Machine m : machines) {
            if (!m.host().isEmpty()) {
                int[] p = placed.computeIfAbsent(m.host().node(), k -> new int[2]);
                p[0]++;
                p[1] += catalog.find(m.instanceType()).map(InstanceType::vcpu).orElse(0);
            }
        }
        boolean unknown = !read.error().isEmpty()
                || backend.apiStatus().map(ApiStatus::reachable).map(up -> !up).orElse(false);
        List<NodeRow> rows = new ArrayList<>();
        for (NodeStatus n : read.nodes()) {
            int[] p = placed.getOrDefault(n.name(), new int[2]);
            rows.add(new NodeRow(
                    n.name(),
                    unknown ? "unknown" : n.online() ? "online" : "offline",
                    n.online(),
                    n.maxCpu(),
                    p[1],
                    n.usedMemoryBytes(),
                    n.maxMemoryBytes(),
                    n.storageUsedBytes(),
                    n.storageTotalBytes(),
                    p[0],
                    !unknown && n.schedulable(),
                    unknown ? null : n.unschedulable().orElse(null)));
        }
        return new NodeList(rows, read.at().toString(), read.error());
    }
}
