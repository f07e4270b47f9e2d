package dev.bigfleet.proxmox.server.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code --nodes}: Proxmox node names, each one a zone; empty when none was given. */
public record NodeList(List<String> names) {
    public static final NodeList NONE = new NodeList(List.of());

    public NodeList {
        names = List.copyOf(names);
    }

    /**
     * Parses comma-separated names; parts are trimmed and empty ones skipped.
     *
     * @throws IllegalArgumentException naming the bad node
     */
    public static NodeList parse(String value) {
        if (value == null || value.isBlank()) {
            return NONE;
        }
        Set<String> nodes = new LinkedHashSet<>();
        for (String raw : value.split(",", -1)) {
            String node = raw.trim();
            if (node.isEmpty()) {
                continue;
            }
            if (node.contains("/") || node.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("node \"" + node + "\" must not contain '/' or spaces");
            }
            if (!nodes.add(node)) {
                throw new IllegalArgumentException("node \"" + node + "\" is listed twice");
            }
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("\"" + value + "\" names no node");
        }
        return new NodeList(new ArrayList<>(nodes));
    }
}
