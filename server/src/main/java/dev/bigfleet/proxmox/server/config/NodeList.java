package dev.bigfleet.proxmox.server.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Parses {@code --nodes}: comma-separated Proxmox node names, each one a zone. */
public final class NodeList {
    private NodeList() {}

    public static List<String> parse(String value) throws ConfigException {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        Set<String> nodes = new LinkedHashSet<>();
        for (String raw : value.split(",")) {
            String node = raw.trim();
            if (node.isEmpty()) {
                continue;
            }
            if (node.contains("/") || node.chars().anyMatch(Character::isWhitespace)) {
                throw new ConfigException("--nodes: node \"" + node + "\" must not contain '/' or spaces");
            }
            if (!nodes.add(node)) {
                throw new ConfigException("--nodes: node \"" + node + "\" is listed twice");
            }
        }
        if (nodes.isEmpty()) {
            throw new ConfigException("--nodes: \"" + value + "\" names no node");
        }
        return new ArrayList<>(nodes);
    }
}
