package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The parts of {@code GET /cluster/ha/status/manager_status} (pve-ha-manager; {@code Sys.Audit} on
 * {@code /}) that say whether a node may take a new VM: whether the answering node's cluster is
 * quorate, each node's status as the CRM sees it ({@code online}, {@code maintenance}, {@code fence},
 * {@code unknown}, {@code gone}) and each LRM's mode ({@code active}, {@code maintenance}, {@code
 * restart}, {@code shutdown}). Nodes the HA stack never saw are in neither map.
 */
public record HaStatus(boolean quorate, Map<String, String> nodeStatus, Map<String, String> lrmMode) {
    public HaStatus {
        nodeStatus = Map.copyOf(nodeStatus);
        lrmMode = Map.copyOf(lrmMode);
    }

    static HaStatus from(JsonNode data) {
        boolean quorate = Json.flag(data.path("quorum"), "quorate").orElse(true);
        Map<String, String> nodes = new LinkedHashMap<>();
        data.path("manager_status")
                .path("node_status")
                .properties()
                .forEach(e -> nodes.put(e.getKey(), e.getValue().asText()));
        Map<String, String> modes = new LinkedHashMap<>();
        data.path("lrm_status").properties().forEach(e -> {
            String mode = e.getValue().path("mode").asText("");
            if (!mode.isEmpty()) {
                modes.put(e.getKey(), mode);
            }
        });
        return new HaStatus(quorate, nodes, modes);
    }

    /** Why {@code node} takes no new VM as far as HA knows, or empty. */
    public Optional<String> refusal(String node) {
        if (!quorate) {
            return Optional.of("the cluster has no quorum");
        }
        if ("maintenance".equals(lrmMode.get(node)) || "maintenance".equals(nodeStatus.get(node))) {
            return Optional.of("it is in maintenance mode (ha-manager crm-command node-maintenance)");
        }
        String status = nodeStatus.getOrDefault(node, "online");
        if (status.equals("fence") || status.equals("gone") || status.equals("unknown")) {
            return Optional.of("HA reports it " + status);
        }
        return Optional.empty();
    }
}
