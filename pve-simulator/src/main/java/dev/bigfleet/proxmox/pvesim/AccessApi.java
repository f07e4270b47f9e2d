package dev.bigfleet.proxmox.pvesim;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /access/permissions}: the token's effective privileges on one path (with {@code path})
 * or on the paths it has entries for, each privilege mapped to its propagate flag. A token may
 * always read its own.
 */
final class AccessApi {
    private final Cluster cluster;

    AccessApi(Cluster cluster) {
        this.cluster = cluster;
    }

    void register(Router r) {
        r.add(
                "GET",
                "/access/permissions",
                ParamSchema.of()
                        .string("userid", false)
                        .string(
                                "path",
                                false,
                                0,
                                v -> v.startsWith("/") ? null : "invalid format - invalid ACL path '" + v + "'"),
                this::permissions);
    }

    private Object permissions(Call c) {
        String user = c.params().str("userid");
        String self = cluster.config.token().tokenId();
        if (user != null && !user.equals(self) && !self.startsWith(user + "!")) {
            cluster.acl.require("/access", "Sys.Audit");
        }
        String path = c.params().str("path");
        Map<String, Object> out = new LinkedHashMap<>();
        Set<String> paths = new LinkedHashSet<>();
        if (path != null) {
            paths.add(path);
        } else {
            paths.add("/");
            paths.addAll(cluster.config.privileges().paths());
        }
        for (String p : paths) {
            Map<String, Integer> privs = new LinkedHashMap<>();
            cluster.acl.privileges(p).forEach(x -> privs.put(x, 1));
            if (path != null || !privs.isEmpty()) {
                out.put(p, privs);
            }
        }
        return out;
    }
}
