package dev.bigfleet.proxmox.pvesim;

/**
 * A cluster node's mutable state: its fixed capacity plus what tests flip: online, and HA
 * maintenance mode ({@code ha-manager crm-command node-maintenance enable}), which only the HA
 * manager's status shows.
 */
final class Node {
    final NodeSpec spec;
    final int nodeId;
    boolean online = true;
    boolean maintenance;

    Node(NodeSpec spec, int nodeId) {
        this.spec = spec;
        this.nodeId = nodeId;
    }

    String name() {
        return spec.name();
    }
}
