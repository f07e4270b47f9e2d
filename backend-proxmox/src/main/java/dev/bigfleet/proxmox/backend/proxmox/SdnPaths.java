package dev.bigfleet.proxmox.backend.proxmox;

import dev.bigfleet.proxmox.backend.proxmox.client.PveApiException;
import dev.bigfleet.proxmox.backend.proxmox.client.PveClient;
import dev.bigfleet.proxmox.backend.proxmox.client.SdnVnet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ACL path on which a NIC needs {@code SDN.Use}, as Proxmox checks it (pve-guest-common's
 * {@code check_vnet_access}): {@code /sdn/zones/<zone>/<bridge>[/<vlan>]}, in an SDN VNet's own
 * zone, else in {@code localnetwork} (a node's Linux or OVS bridge). The VNets' zones come from
 * {@code GET /cluster/sdn/vnets}. A VNet the token cannot see there (Proxmox lists only those it
 * holds {@code SDN.Audit} or {@code SDN.Allocate} on), or any VNet when that listing is refused or
 * this Proxmox VE has no SDN API, is taken for a node's bridge, in {@code localnetwork}.
 */
final class SdnPaths {
    private static final Logger log = LoggerFactory.getLogger(SdnPaths.class);

    /** The zone of a node's own bridges. */
    static final String LOCAL_ZONE = "localnetwork";

    /** Every bridge in {@code localnetwork}: no VNet known. */
    static final SdnPaths LOCAL = new SdnPaths(Map.of());

    private final Map<String, String> zoneByVnet;

    private SdnPaths(Map<String, String> zoneByVnet) {
        this.zoneByVnet = Map.copyOf(zoneByVnet);
    }

    /** The paths with {@code vnets} in their zones. */
    static SdnPaths of(List<SdnVnet> vnets) {
        Map<String, String> zones = new TreeMap<>();
        for (SdnVnet v : vnets) {
            if (!v.name().isEmpty() && !v.zone().isEmpty()) {
                zones.put(v.name(), v.zone());
            }
        }
        return new SdnPaths(zones);
    }

    /**
     * The VNets the token may see, read once; {@link #LOCAL} when Proxmox refuses the listing (403)
     * or has no SDN API (501, 404).
     *
     * @throws PveApiException when the listing fails otherwise
     */
    static SdnPaths read(PveClient api) {
        try {
            return of(api.sdnVnets());
        } catch (PveApiException e) {
            if (e.isStatus(403) || e.isStatus(404) || e.isStatus(501)) {
                log.warn(
                        "cannot list the SDN VNets ({}): SDN.Use is checked on /sdn/zones/{}/<bridge> for every"
                                + " NIC",
                        e.getMessage(),
                        LOCAL_ZONE);
                return LOCAL;
            }
            throw e;
        }
    }

    /** Whether the VNets were listed (else every bridge is taken for a node's own). */
    boolean listed() {
        return this != LOCAL;
    }

    /** The VNet's zone, when {@code bridge} is a VNet the listing showed. */
    Optional<String> vnetZone(String bridge) {
        return Optional.ofNullable(zoneByVnet.get(bridge));
    }

    /** The zone a NIC on {@code bridge} is in: its VNet's, else {@code localnetwork}. */
    String zoneOf(String bridge) {
        return vnetZone(bridge).orElse(LOCAL_ZONE);
    }

    /** Where a NIC on {@code bridge}, tagged {@code vlan} (or untagged), needs {@code SDN.Use}. */
    String usePath(String bridge, Optional<String> vlan) {
        return "/sdn/zones/" + zoneOf(bridge) + "/" + bridge
                + vlan.map(t -> "/" + t).orElse("");
    }
}
