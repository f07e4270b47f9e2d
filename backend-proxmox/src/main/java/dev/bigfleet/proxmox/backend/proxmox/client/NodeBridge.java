package dev.bigfleet.proxmox.backend.proxmox.client;

/**
 * A bridge a node lists ({@code GET /nodes/{node}/network?type=any_bridge}): its type ({@code
 * bridge}, {@code OVSBridge}, or {@code vnet} for an SDN VNet) and its MTU (Linux's 1500 when its
 * entry names none).
 */
public record NodeBridge(String type, int mtu) {
    /** Linux's MTU for an interface that sets none. */
    public static final int DEFAULT_MTU = 1500;
}
