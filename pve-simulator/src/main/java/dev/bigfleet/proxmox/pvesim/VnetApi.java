package dev.bigfleet.proxmox.pvesim;

import java.util.ArrayList;
import java.util.List;

/**
 * pve-network's {@code GET /cluster/sdn/vnets} and {@code GET /cluster/sdn/vnets/{vnet}}: the
 * VNets the token holds {@code SDN.Audit} or {@code SDN.Allocate} on ({@code
 * /sdn/zones/<zone>/<vnet>}). The running and pending configurations equal the file, but have no
 * digest.
 */
final class VnetApi {
    private final Cluster cluster;

    VnetApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add("GET", "/cluster/sdn/vnets", ParamSchema.of().bool("running").bool("pending"), c -> index(c.params()));
        r.add(
                "GET",
                "/cluster/sdn/vnets/{vnet}",
                ParamSchema.of()
                        .string("vnet", true, 0, VnetApi::vnetIdCheck)
                        .bool("running")
                        .bool("pending"),
                c -> read(c.params()));
    }

    /** pve-network's {@code pve-sdn-vnet-id}: its pattern is checked before its length, as pve-common does. */
    private static String vnetIdCheck(String v) {
        if (!v.matches("[a-zA-Z][a-zA-Z0-9]*[a-zA-Z0-9]")) {
            return "value does not match the regex pattern";
        }
        return v.length() > 8 ? "value may only be 8 characters long" : null;
    }

    private String digest(ValidParams p) {
        return p.bool("running", false) || p.bool("pending", false) ? null : cluster.vnets.digest();
    }

    private Object index(ValidParams p) {
        List<Object> out = new ArrayList<>();
        for (VnetSpec v : cluster.vnets.sorted()) {
            if (canSee(v)) {
                out.add(Vnets.json(v, digest(p)));
            }
        }
        return out;
    }

    private boolean canSee(VnetSpec v) {
        String path = "/sdn/zones/" + v.zone() + "/" + v.name();
        return cluster.acl.has(path, "SDN.Audit") || cluster.acl.has(path, "SDN.Allocate");
    }

    private Object read(ValidParams p) {
        String name = p.str("vnet");
        VnetSpec v = cluster.vnets.get(name);
        if (v == null) {
            throw Errors.handler("sdn vnet '" + name + "' does not exist");
        }
        cluster.acl.requireAny("/sdn/zones/" + v.zone() + "/" + name, "SDN.Audit", "SDN.Allocate");
        return Vnets.json(v, digest(p));
    }
}
