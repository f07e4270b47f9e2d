package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * One entry of {@code GET /cluster/mapping/pci}: a cluster-wide PCI resource mapping and how many
 * devices it maps on each node (its {@code map} holds one {@code node=...,path=...,id=...} property
 * string per device).
 */
public record PciMapping(String id, Map<String, Integer> devicesPerNode) {
    public PciMapping {
        devicesPerNode = Map.copyOf(devicesPerNode);
    }

    static PciMapping from(JsonNode n) {
        Map<String, Integer> perNode = new TreeMap<>();
        for (JsonNode device : n.path("map")) {
            for (String part : device.asText("").split(",", -1)) {
                if (part.startsWith("node=")) {
                    perNode.merge(part.substring("node=".length()), 1, Integer::sum);
                }
            }
        }
        return new PciMapping(Json.textOr(n, "id", ""), perNode);
    }

    public int devicesOn(String node) {
        return devicesPerNode.getOrDefault(node, 0);
    }
}
