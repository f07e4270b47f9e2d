package dev.bigfleet.proxmox.pvesim;

/** A cluster node's mutable state: its fixed capacity plus the online flag tests can flip. */
final class Node {
    final NodeSpec spec;
    final int nodeId;
    boolean online = true;

    Node(NodeSpec spec, int nodeId) {
        this.spec = spec;
        this.nodeId = nodeId;
    }

    String name() {
        return spec.name();
    }
}
