package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.api.InstanceType;
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
 * token is accepted, every {@code --nodes} entry is a cluster node, the pool exists, and every
 * template an offering clones is a template. Mistakes are {@link IllegalArgumentException}s naming
 * the flag; an unreachable cluster is an {@link IllegalStateException}.
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

    void run(BackendContext context, Optional<String> pool) {
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
        checkTemplates(context, listed);
        log.info("Proxmox VE {} reachable; nodes {} and templates checked", version, String.join(",", context.nodes()));
    }

    private static RuntimeException startupFailure(PveApiException e) {
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

    private static void checkNodes(List<String> wanted, List<ClusterResource> listed) {
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

    private void checkPool(String pool) {
        try {
            api.pool(pool);
        } catch (PveApiException e) {
            if (e.kind() == PveApiException.Kind.HTTP) {
                throw new IllegalArgumentException("--proxmox-pool: pool \"" + pool + "\" is missing or not visible to"
                        + " the token: " + e.getMessage());
            }
            throw startupFailure(e);
        }
    }

    private void checkTemplates(BackendContext context, List<ClusterResource> listed) {
        Map<Long, String> templates = new LinkedHashMap<>();
        for (Offering o : context.offerings()) {
            context.catalog()
                    .find(o.instanceType())
                    .map(InstanceType::templateVmid)
                    .ifPresent(vmid -> templates.putIfAbsent(vmid, o.instanceType()));
        }
        for (Map.Entry<Long, String> t : templates.entrySet()) {
            long vmid = t.getKey();
            String where = "--template-vmid / --instance-types: template VMID " + vmid + " (instance type "
                    + t.getValue() + ")";
            Optional<ClusterResource> r =
                    listed.stream().filter(x -> x.isQemu() && x.vmid() == vmid).findFirst();
            if (r.isEmpty()) {
                throw new IllegalArgumentException(where + " is not in the cluster (or not visible to the API token)");
            }
            boolean isTemplate;
            if (r.get().template().isPresent()) {
                isTemplate = r.get().template().get();
            } else {
                // a VM not yet sampled by the statistics feed: ask its config
                try {
                    isTemplate = api.config(r.get().node(), vmid).template();
                } catch (PveApiException e) {
                    throw startupFailure(e);
                }
            }
            if (!isTemplate) {
                throw new IllegalArgumentException(
                        where + " is a VM, not a template (convert it with" + " `qm template " + vmid + "`)");
            }
        }
    }
}
