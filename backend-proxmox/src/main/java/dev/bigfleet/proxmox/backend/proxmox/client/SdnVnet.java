package dev.bigfleet.proxmox.backend.proxmox.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of {@code GET /cluster/sdn/vnets}: an SDN VNet, which a NIC names as its bridge, and
 * the zone it is in (a NIC on it needs {@code SDN.Use} on {@code /sdn/zones/<zone>/<name>}).
 *
 * @param name the VNet's ID
 * @param zone the ID of its SDN zone
 * @param tag its VLAN tag or VXLAN VNI in the zone, when it has one
 */
public record SdnVnet(String name, String zone, Optional<Integer> tag) {
    public SdnVnet {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(tag, "tag");
    }

    static SdnVnet from(JsonNode n) {
        long tag = Json.number(n, "tag", -1);
        return new SdnVnet(
                Json.textOr(n, "vnet", ""),
                Json.textOr(n, "zone", ""),
                tag > 0 && tag <= Integer.MAX_VALUE ? Optional.of((int) tag) : Optional.empty());
    }
}
