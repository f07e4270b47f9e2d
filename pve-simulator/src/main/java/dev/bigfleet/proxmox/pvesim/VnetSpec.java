package dev.bigfleet.proxmox.pvesim;

import java.util.Objects;

/**
 * One SDN VNet of the simulated {@code sdn/vnets.cfg}, applied: a bridge of its name on every node,
 * in {@code zone}. Guests on it need {@code SDN.Use} on {@code /sdn/zones/<zone>/<name>}.
 *
 * @param name the VNet's ID (pve-network's {@code pve-sdn-vnet-id}: 2 to 8 letters and digits,
 *     starting with a letter)
 * @param zone the zone's ID (the same form)
 * @param tag its VLAN tag or VXLAN VNI in the zone (1 to 16777215), or null
 * @param alias its alias name, or null (an empty one is null)
 */
public record VnetSpec(String name, String zone, Integer tag, String alias) {
    private static final String SDN_ID = "[a-zA-Z][a-zA-Z0-9]*[a-zA-Z0-9]";

    public VnetSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(zone, "zone");
        if (!name.matches(SDN_ID) || name.length() > 8) {
            throw new IllegalArgumentException(
                    "invalid VNet ID '" + name + "': 2 to 8 letters and digits, starting with a letter");
        }
        if (!zone.matches(SDN_ID) || zone.length() > 8) {
            throw new IllegalArgumentException("VNet " + name + ": invalid zone ID '" + zone
                    + "': 2 to 8 letters and digits, starting with a letter");
        }
        if (tag != null && (tag < 1 || tag > 16_777_215)) {
            throw new IllegalArgumentException("VNet " + name + ": tag " + tag + " is outside 1..16777215");
        }
        if (alias != null && alias.isEmpty()) {
            alias = null; // not written to the file
        }
        if (alias != null && (alias.length() > 256 || alias.matches("(?s).*[\\n\\r].*"))) {
            throw new IllegalArgumentException("VNet " + name + ": an alias is one line of at most 256 characters");
        }
    }

    /** A VNet without tag or alias. */
    public static VnetSpec of(String name, String zone) {
        return new VnetSpec(name, zone, null, null);
    }

    public VnetSpec withTag(int t) {
        return new VnetSpec(name, zone, t, alias);
    }

    public VnetSpec withAlias(String a) {
        return new VnetSpec(name, zone, tag, a);
    }
}
