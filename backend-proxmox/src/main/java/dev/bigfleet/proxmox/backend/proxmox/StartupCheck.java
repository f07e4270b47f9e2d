package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.Offering;
import dev.bigfleet.proxmox.backend.proxmox.client.ClusterResource;
import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.spi.BackendContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the backend proves before the provider serves: the TLS peer is the one configured, the
 * token is accepted, every {@code --nodes} entry is a cluster node, the pool exists, every
 * (instance type, node) pair of the offerings has a template it can clone there ({@link
 * TemplateResolver}, {@link PlacementCheck}), and the token holds the privileges all that needs
 * ({@link PrivilegeCheck}). Mistakes are {@link IllegalArgumentException}s naming the flag; an
 * unreachable cluster is an {@link IllegalStateException}.
 */
final class StartupCheck {
    private static final Logger log = LoggerFactory.getLogger(StartupCheck.class);

    private final PveClient api;

    StartupCheck(PveClient api) {
        this.api = api;
    }

    /** Offering zones must all be nodes named in {@code --nodes}, which the real backend requires. */
    static void checkPlacement(BackendContext context) {
        if (context.nodes().isEmpty()) {
            throw new IllegalArgumentException("--nodes: required by the proxmox backend (the Proxmox node names,"
                    + " comma separated; each is a zone)");
        }
        for (Offering o : context.offerings()) {
            if (!context.nodes().contains(o.zone())) {
                throw new IllegalArgumentException("--nodes: offering " + o.instanceType() + " is placed on node "
                        + o.zone() + ", which is not in --nodes (" + String.join(",", context.nodes()) + ")");
            }
        }
    }

    PlacementPlan run(BackendContext context, ProxmoxSettings settings, StorageStatusCache storages) {
        Optional<String> pool = settings.pool();
        String version;
        try {
            version = api.version();
        } catch (PveApiException e) {
            throw startupFailure(e);
        }
        List<ClusterResource> listed;
        try {
            listed = api.allResources();
        } catch (PveApiException e) {
            throw startupFailure(e);
        }
        checkNodes(context.nodes(), listed);
        pool.ifPresent(this::checkPool);
        PlacementCheck placements = new PlacementCheck(api, storages);
        PlacementPlan plan = new TemplateResolver(api, settings).resolve(context, listed, placements);
        checkTypePools(plan);
        List<String> nodes =
                context.offerings().stream().map(Offering::zone).distinct().toList();
        new PrivilegeCheck(api)
                .check(PrivilegeCheck.required(plan, pool, nodes, majorVersion(version) >= 9, placements.sdnPaths()));
        for (Placement p : plan.all()) {
            log.info(
                    "{} on {}: {} clone of template {} on {}{}",
                    p.type().name(),
                    p.node(),
                    p.mode(),
                    p.template().vmid(),
                    p.template().node(),
                    p.target().isPresent() ? " (disks on shared storage)" : "");
        }
        log.info(
                "Proxmox VE {} reachable; nodes {}, templates, storages and privileges checked",
                version,
                String.join(",", context.nodes()));
        return plan;
    }

    static int majorVersion(String version) {
        try {
            return Integer.parseInt(version.split("\\.", 2)[0].trim());
        } catch (NumberFormatException e) {
            return 9;
        }
    }

    /** A failed call at startup: a refusal (403) names {@code where}; anything else as {@link #startupFailure}. */
    static RuntimeException failure(String where, PveApiException e) {
        if (e.kind() == PveApiException.Kind.HTTP && e.status() == 403) {
            return new IllegalArgumentException(where + e.getMessage());
        }
        return startupFailure(e);
    }

    static RuntimeException startupFailure(PveApiException e) {
        switch (e.kind()) {
            case TLS:
                return new IllegalArgumentException(
                        e.getMessage().contains("fingerprint")
                                ? "--proxmox-tls-fingerprint: " + e.getMessage()
                                : "--proxmox-ca-file: " + e.getMessage());
            case HTTP:
                if (e.status() == 401) {
                    return new IllegalArgumentException(
                            "--proxmox-token-id: the Proxmox API refused the token: " + e.getMessage());
                }
                if (e.status() == 403) {
                    return new IllegalArgumentException(
                            "--proxmox-token-id: the token may not read the cluster: " + e.getMessage());
                }
                return new IllegalStateException("the Proxmox API failed: " + e.getMessage(), e);
            default:
                return new IllegalStateException("cannot reach the Proxmox API: " + e.getMessage(), e);
        }
    }

    static void checkNodes(List<String> wanted, List<ClusterResource> listed) {
        Map<String, ClusterResource> nodes = listed.stream()
                .filter(ClusterResource::isNode)
                .collect(Collectors.toMap(ClusterResource::node, r -> r, (a, b) -> a, LinkedHashMap::new));
        for (String n : wanted) {
            ClusterResource node = nodes.get(n);
            if (node == null) {
                throw new IllegalArgumentException("--nodes: " + n + " is not a node of this Proxmox cluster (it has: "
                        + String.join(",", new TreeSet<>(nodes.keySet())) + ")");
            }
            if (node.status().equals("offline")) {
                log.warn("node {} is offline: Creates placed on it will fail until it is back", n);
            }
        }
    }

    void checkPool(String pool) {
        checkPool(pool, "--proxmox-pool");
    }

    /** Each type's own {@code pool} exists and the token sees it. */
    void checkTypePools(PlacementPlan plan) {
        Map<String, String> byPool = new java.util.TreeMap<>();
        for (Placement p : plan.all()) {
            p.shape()
                    .pool()
                    .ifPresent(x -> byPool.putIfAbsent(
                            x, "--instance-types \"" + p.type().name() + "\": pool"));
        }
        byPool.forEach(this::checkPool);
    }

    private void checkPool(String pool, String where) {
        try {
            api.pool(pool);
        } catch (PveApiException e) {
            if (e.kind() == PveApiException.Kind.HTTP) {
                throw new IllegalArgumentException(
                        where + ": pool \"" + pool + "\" is missing or not visible to the token: " + e.getMessage());
            }
            throw startupFailure(e);
        }
    }
}
