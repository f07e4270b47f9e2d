package dev.bigfleet.proxmox.pvesim;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * pve-guest-common's {@code check_vnet_access}: a NIC on a bridge needs {@code SDN.Use} in the
 * bridge's zone (a VNet's own zone, else {@code localnetwork} for a node's Linux bridge), on
 * {@code /sdn/zones/<zone>/<bridge>/<tag>} for its VLAN tag and each of its trunks' VLANs, or on
 * {@code /sdn/zones/<zone>/<bridge>} when it has neither.
 */
final class BridgeAccess {
    static final String LOCAL_ZONE = "localnetwork";

    private BridgeAccess() {}

    /** The zone a NIC on {@code bridge} is in. */
    static String zoneOf(Cluster cluster, String bridge) {
        VnetSpec vnet = cluster.vnets.get(bridge);
        return vnet == null ? LOCAL_ZONE : vnet.zone();
    }

    /** @param net the parsed value of one of a VM's NICs; nothing is checked without a bridge */
    static void requireUse(Cluster cluster, Map<String, String> net) {
        String bridge = net.get("bridge");
        if (bridge == null) {
            return;
        }
        String path = "/sdn/zones/" + zoneOf(cluster, bridge) + "/" + bridge;
        String tag = net.get("tag");
        String trunks = net.get("trunks");
        if (tag != null) {
            cluster.acl.require(path + "/" + tag, "SDN.Use");
        }
        if (trunks != null) {
            for (String vlan : trunkVlans(trunks)) {
                cluster.acl.require(path + "/" + vlan, "SDN.Use");
            }
        }
        if (tag == null && trunks == null) {
            cluster.acl.require(path, "SDN.Use");
        }
    }

    /** Every VLAN of {@code 10;20-22}, in the string order Perl's {@code sort} gives. */
    private static Set<String> trunkVlans(String trunks) {
        TreeSet<String> out = new TreeSet<>();
        for (String trunk : trunks.split(";", -1)) {
            String[] range = trunk.split("-", -1);
            long from = Long.parseLong(range[0]);
            long to = range.length > 1 && !range[1].isEmpty() ? Long.parseLong(range[1]) : from;
            // VLAN IDs end at 4094: a range beyond that is not walked to its end
            for (long v = from; v <= Math.min(Math.max(from, to), Math.max(from, 4094)); v++) {
                out.add(Long.toString(v));
            }
        }
        return out;
    }
}
